/**
 * The permission matrix (issue 9 point 3, DESIGN §5): every operation of the live
 * OpenAPI document × {anonymous, expired token, forged signature, alg none,
 * revoked token, viewer, operator, operator on hidden rows, admin}, each cell
 * with the exact answer DESIGN §5 prescribes:
 *
 * - public routes (login, health): success for every caller;
 * - anonymous and the four bad tokens: 401;
 * - viewer (no `write`): 403 on mutations (but its own logout and password) and
 *   on the reads that reveal secrets, success on the other reads;
 * - operator (`write`, no CustomerProductionAccess) on rows of a visible account:
 *   success; with one id made hidden (a Customer Production account, one of its
 *   machines, sites or tasks, or a Customer Production machine of a visible
 *   account): 404 for an id in the path; for an id in the query or body, the
 *   answer an unknown id gets (hidden is indistinguishable from absent); with
 *   class id 5 in a body, 403; an admins-only mutation (the fleet freeze), 403;
 * - admin on the rows of a Customer Production account: success;
 * - the MMA protocol (issue 27): every user's token 401, an MMA's token success
 *   (its registration is public: the registration token is in the body).
 *
 * Refused cells run first and must change no row (a checksum of every table);
 * no cell answers 5xx; no success answered to viewer or operator carries a
 * Customer Production account or machine, but a restricted row of the accounts
 * list (id, name and class only) and the fleet's counts per class (spec 1 §2,
 * spec 3 §2.9; issue 24 point 9, `accounts-restricted.test.ts`). A new route is covered without editing
 * this file: requests are generated from the document (`openapi-walk.ts`), and
 * `permission-fixtures.ts` holds the few that need realistic input.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CLASS_ADD_ON, CLASS_CUSTOMER_PRODUCTION } from '@fleet/contracts';
import { startTestApp, type TestApp } from './harness.js';
import { buildRequest, operationsOf, refsOf, type Operation, type Ref, type RefKind } from './openapi-walk.js';
import { FIXTURES, addHiddenRows, badTokens, newDraft, newTask, newTemplate, setUpWorlds, type BadToken, type User, type World } from './permission-fixtures.js';

const PUBLIC = new Set(['login', 'getHealth', 'registerMmaAgent', 'getSsoInfo']);
/**
 * Public, but 400 to every caller here: the one-time code of a single sign-on
 * (issue 28 point 2) exists only after a sign-in at the provider, which this app
 * has none of (`modules/sso/sso.test.ts` proves its success).
 */
const PUBLIC_REFUSED = new Set(['exchangeSsoCode']);
/** Mutations for admins only (permission admin, or write with CustomerProductionAccess): 403 to the operator. */
const ADMIN_ONLY = new Set([
  'setFleetFreeze',
  'createMmaRegistrationToken',
  'revokeMmaAgent',
  // Notification channels (issue 28 point 3), reads included.
  'listNotificationChannels',
  'listNotificationDeliveries',
  'createNotificationChannel',
  'createNotificationSubscription',
  'deleteNotificationSubscription',
  'testNotificationChannel',
  'updateNotificationChannel',
  'deleteNotificationChannel',
]);
/** Reads for admins only (`requireWrite`, then the service's admin check): not offered to the viewer. */
const ADMIN_READS = new Set(['listNotificationChannels', 'listNotificationDeliveries']);
/** Mutations of the caller's own session or password: no `write` needed. */
const SELF_SERVICE = new Set(['logout', 'changePassword']);
/** Reads that reveal secrets, so need `write` (the routes' `requireWrite`). */
const SECRET_READS = new Set(['listLauncherLogins', 'getMachineCredential', 'downloadAccountKeys', 'downloadCaaKey', 'downloadLicenseKeys']);
/** Reads of a write-only screen, the Updater (spec 3 §2): they need `write` too (`requireWrite`), and audit nothing. */
const WRITE_ONLY_READS = new Set(['listUpdaterMachines', 'listUpdaterMachineIds', 'listUpdaterAccounts', 'listUpdaterAccountIds', 'listUpdaterSelections', 'listRollouts', 'getRollout', 'listRolloutTargets']);
/**
 * Reads that count or list Customer Production for every user (spec 1 §2: the
 * accounts list shows those accounts as restricted rows and its footer counts
 * them; spec 3 §2.9: the top bar counts every class): their answers to the
 * operator change when hidden rows are added. `accounts-restricted.test.ts`
 * proves they reveal nothing but names, classes and counts.
 */
const COUNTED_FOR_EVERYONE = new Set(['listAccounts', 'getAccountsInfo', 'getMachineStats']);
/**
 * The MMA protocol (issue 27): a route an MMA calls with its own authentication
 * token (the fixture's), refused (401) to every user's token.
 */
const isMmaProtocol = (op: Operation) => op.path.startsWith('/api/v1/mma-agent/') && !PUBLIC_MMA.has(op.operationId);
/** The MMA protocol's public route: the registration token is in the body. */
const PUBLIC_MMA = new Set(['registerMmaAgent']);
/** Changes the caller's password: runs after every other cell. */
const LAST = new Set(['changePassword']);
/** Kinds of id that can name a hidden row (a draft is its author's only: the admin's is hidden from the operator). */
const HIDEABLE: RefKind[] = ['account', 'machine', 'site', 'task', 'draft', 'class', 'operation', 'activity', 'rollout'];
/** An id no row has (within PostgreSQL integer). */
const UNKNOWN_ID = 2_147_483_000;
const BAD_TOKENS: BadToken[] = ['expired', 'forged', 'algNone', 'revoked'];

type Expected = '2xx' | '400' | '401' | '403' | '404' | 'as unknown';
interface Cell {
  operation: string;
  column: string;
  expected: Expected;
  got: number;
  body: string;
  /** Why an otherwise matching answer is wrong (a leak, a difference from the unknown id). */
  problem?: string;
}

let t: TestApp;
let doc: { paths: Record<string, Record<string, Record<string, unknown>>> };
let operations: Operation[];
let tokens: Record<BadToken, string> & Record<User, string>;
let worlds: Awaited<ReturnType<typeof setUpWorlds>>;
let hiddenRows: Awaited<ReturnType<typeof loadHiddenRows>>;
const cells: Cell[] = [];

const needsWrite = (op: Operation) =>
  SECRET_READS.has(op.operationId) ||
  WRITE_ONLY_READS.has(op.operationId) ||
  ADMIN_READS.has(op.operationId) ||
  (op.method !== 'GET' && !SELF_SERVICE.has(op.operationId));
/** 'as unknown' cells are judged by their comparison with the unknown id (`Cell.problem`). */
const statusOk = (expected: Expected, got: number) =>
  expected === 'as unknown' ? got > 0 : expected === '2xx' ? got >= 200 && got < 300 : String(got) === expected;

/** The id of `ref` in a world: its row of that kind, the enum-chosen template and commit, no parent. */
function worldValue(w: World, ref: Ref): number | string | undefined {
  if (ref.name === 'parentId') return undefined;
  if (ref.kind === 'template') return worlds.shared.template;
  if (ref.kind === 'commit') return worlds.shared.commit;
  if (ref.kind === 'componentConfig' || ref.kind === 'deployerConfig' || ref.kind === 'irmnVersion' || ref.kind === 'saasImage' || ref.kind === 'mmaAgent') {
    return worlds.shared[ref.kind];
  }
  return w.ids[ref.kind];
}

/** Sends `op` as `token` with the ids `value` gives; the fixture's body and token when `withFixture`. */
async function send(
  op: Operation,
  opts: { token?: string; user?: User; world: World; value: (ref: Ref) => number | string | undefined; withFixture: boolean },
) {
  const built = buildRequest(op, opts.value);
  const fixture = opts.withFixture ? FIXTURES[op.operationId] : undefined;
  let body = built.body;
  let token = opts.token;
  if (fixture && opts.user) {
    // The first id of each kind (the path's before the body's) is the row the fixture reads.
    const ids: Partial<Record<RefKind, number | string>> = {};
    for (const r of refsOf(op)) ids[r.kind] ??= opts.value(r);
    const context = { t, user: opts.user, world: opts.world, ids };
    try {
      if (fixture.body) {
        const refProps = Object.fromEntries(
          refsOf(op)
            .filter((r) => r.in === 'body' && opts.value(r) !== undefined)
            .map((r) => [r.name, (built.body as Record<string, unknown>)[r.name]]),
        );
        const made = await fixture.body(context);
        // A file's bytes go as they are (`contentType`); a JSON body gets the ids over it.
        body = Buffer.isBuffer(made) ? made : { ...(made as object), ...refProps };
      }
      if (fixture.token) token = await fixture.token(context);
      if (fixture.query) Object.assign(built.query, await fixture.query(context));
    } catch (error) {
      // A fixture that cannot read what it needs fails its cell, not the whole matrix.
      return { status: 0, body: `fixture failed: ${(error as Error).message}`, json: undefined };
    }
  }
  const res = await t.app.inject({
    method: op.method,
    url: built.url,
    query: built.query,
    payload: body as never,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(fixture?.contentType ? { 'content-type': fixture.contentType } : {}) },
  });
  return { status: res.statusCode, body: res.body, json: res.headers['content-type']?.toString().includes('json') ? safeJson(res.body) : undefined };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A Customer Production account or machine in a success answered to a user without
 * the group, or null: an object of class 5 (a template not made from an account is
 * a preset of values, so its `classId` is no leak), or an `accountId` or `machineId` naming
 * a hidden row. A restricted row of the accounts list (exactly `restricted: true`,
 * id, name and class) and a class's count of the top bar (exactly `class`,
 * `total` and `restricted`, how many of them the user cannot open) are no leak
 * (spec 1 §2, spec 3 §2.9).
 */
function leak(json: unknown): string | null {
  const { accounts, machines } = hiddenRows;
  const keys = (o: Record<string, unknown>) => Object.keys(o).sort().join(',');
  const walk = (v: unknown, path: string): string | null => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`)).find(Boolean) ?? null;
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    if (o.restricted === true && keys(o) === 'class,classId,id,name,restricted') return null;
    if (keys(o) === 'class,restricted,total') return null;
    const isTemplate = 'type' in o && 'isPublic' in o && o.account === null;
    const classIds = [o.classId, o.accountClassId, (o.class as { id?: unknown } | undefined)?.id];
    if (!isTemplate && classIds.includes(CLASS_CUSTOMER_PRODUCTION)) return `${path} has class ${CLASS_CUSTOMER_PRODUCTION}`;
    if (accounts.has(o.accountId as number)) return `${path} names hidden account ${String(o.accountId)}`;
    if (machines.has(o.machineId as number)) return `${path} names hidden machine ${String(o.machineId)}`;
    return Object.entries(o).map(([k, x]) => walk(x, `${path}.${k}`)).find(Boolean) ?? null;
  };
  return walk(json, 'body');
}

/** Every Customer Production account, and every machine hidden by its class or its account's. */
async function loadHiddenRows() {
  const ids = async (query: ReturnType<typeof sql>) => new Set((await t.database.db.execute<{ id: number }>(query)).rows.map((r) => r.id));
  return {
    accounts: await ids(sql`select id from accounts where class_id = ${CLASS_CUSTOMER_PRODUCTION}`),
    machines: await ids(
      sql`select m.id from machines m join accounts a on a.id = m.account_id where ${CLASS_CUSTOMER_PRODUCTION} in (m.class_id, a.class_id)`,
    ),
  };
}

/** A checksum of every table, to prove that refused calls changed no row. */
async function checksum(): Promise<Record<string, string>> {
  const { rows: tables } = await t.database.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await t.database.db.execute<{ sum: string }>(
      sql`select md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as sum from ${sql.identifier(name)} r`,
    );
    out[name] = rows[0]!.sum;
  }
  return out;
}

function record(op: Operation, column: string, expected: Expected, res: { status: number; body: string }, problem?: string) {
  cells.push({ operation: op.operationId, column, expected, got: res.status, body: res.body, problem });
}

/** The failing cells as a table: operation, column, expected, got, body. */
function table(failed: Cell[]): string {
  const rows = failed.map((c) => [c.operation, c.column, c.expected, String(c.got), (c.problem ? `${c.problem}: ` : '') + c.body.slice(0, 240)]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), 10));
  const line = (r: string[]) => r.map((x, i) => (i < 4 ? x.padEnd(widths[i]!) : x)).join(' | ');
  return ['', line(['operation', 'column', 'expected', 'got', 'body']), ...rows.map(line)].join('\n');
}

const failures = (which: (c: Cell) => boolean) =>
  cells.filter(which).filter((c) => c.got >= 500 || !statusOk(c.expected, c.got) || c.problem);

const dataDirBefore = process.env.DATA_DIR;
beforeAll(async () => {
  // The creation email goes to an outbox file: keep it out of the work tree.
  process.env.DATA_DIR = await mkdtemp(join(tmpdir(), 'fleet-matrix-'));
  t = await startTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = operationsOf(doc);
  worlds = await setUpWorlds(t);
  hiddenRows = await loadHiddenRows();
  tokens = { ...(await badTokens(t)), viewer: await t.login('viewer'), operator: await t.login('operator'), admin: await t.login('admin') };
}, 120_000);
afterAll(async () => {
  await t.close();
  // Files of a worker share its process (vitest.config.ts): put the variable back.
  if (dataDirBefore === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = dataDirBefore;
});

/**
 * The operator's hidden cells of `op`: one per id it takes that can name a hidden
 * row, that id hidden (with the other ids of its kind, which name the same row:
 * the path's and the body's account id) and the others visible. A machine id is
 * tried both as a machine of the hidden account and as a hidden machine of the
 * visible account. A parent id is tried on an add-on, the only class it means
 * something for.
 */
function hiddenVariants(op: Operation): { label: string; hides: (r: Ref) => boolean; ref: Ref; hidden: number }[] {
  const refs = refsOf(op);
  const same = (a: Ref, b: Ref) => a.in === b.in && a.name === b.name;
  const seen = new Set<string>();
  return refs
    .filter((r) => HIDEABLE.includes(r.kind))
    .flatMap((ref) => {
      const hides = (r: Ref) => same(r, ref) || (r.kind === ref.kind && r.name !== 'parentId' && ref.name !== 'parentId');
      const hidden = worlds.hidden.ids[ref.kind as keyof World['ids']];
      const variants = [{ label: `${ref.name}=hidden ${ref.kind}`, hides, ref, hidden }];
      if (ref.kind === 'machine') variants.push({ label: `${ref.name}=hidden machine of a visible account`, hides, ref, hidden: worlds.hiddenMachine });
      return variants;
    })
    .filter((v) => {
      // The path's and the body's account id hidden together is one cell, named by the path.
      const key = `${refs.filter(v.hides).map((r) => r.name).join()}:${v.hidden}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** What must not differ between a hidden and an unknown id: a success's body, a problem's field names. */
function shape(json: unknown, status: number): unknown {
  if (status < 300) return json;
  return ((json as { errors?: { propertyName: string }[] } | undefined)?.errors ?? []).map((e) => e.propertyName);
}

async function refusedCells() {
  const visible = worlds.visible;
  const value = (r: Ref) => worldValue(visible, r);
  for (const op of operations) {
    if (PUBLIC.has(op.operationId) || PUBLIC_REFUSED.has(op.operationId)) continue;
    record(op, 'anonymous', '401', await send(op, { world: visible, value, withFixture: false }));
    for (const bad of BAD_TOKENS) record(op, bad, '401', await send(op, { token: tokens[bad], world: visible, value, withFixture: false }));
    if (isMmaProtocol(op)) {
      for (const user of ['viewer', 'operator', 'admin'] as const) record(op, user, '401', await send(op, { token: tokens[user], world: visible, value, withFixture: false }));
      continue;
    }
    if (needsWrite(op)) record(op, 'viewer', '403', await send(op, { token: tokens.viewer, world: worlds.viewerWorld, value, withFixture: false }));
    for (const v of hiddenVariants(op)) {
      const as = (id: number) => (r: Ref) =>
        v.hides(r) ? id : r.kind === 'class' && v.ref.name === 'parentId' ? CLASS_ADD_ON : value(r);
      const call = (id: number) => send(op, { token: tokens.operator, user: 'operator', world: visible, value: as(id), withFixture: true });
      const res = await call(v.hidden);
      const column = `operator, ${v.label}`;
      // A hidden class as a list filter finds nothing; as a value to store, it is refused.
      if (v.ref.kind === 'class' && v.ref.in === 'query') record(op, column, '2xx', res, res.status < 300 ? (leak(res.json) ?? undefined) : undefined);
      else if (v.ref.kind === 'class') record(op, column, '403', res);
      else if (refsOf(op).some((r) => r.in === 'path' && v.hides(r))) record(op, column, '404', res);
      else {
        // Hidden must be indistinguishable from absent: same status, same answer.
        const unknown = await call(UNKNOWN_ID);
        const same = res.status === unknown.status && JSON.stringify(shape(res.json, res.status)) === JSON.stringify(shape(unknown.json, unknown.status));
        const problem = !same ? `unknown id answers ${unknown.status} ${unknown.body.slice(0, 120)}` : res.status < 300 ? leak(res.json) ?? undefined : undefined;
        record(op, column, 'as unknown', res, problem);
        // A body answer of the unknown id's kind still refuses: 2xx only for a read.
        if (res.status < 300 && op.method !== 'GET') cells[cells.length - 1]!.problem = 'a mutation with a hidden id succeeded';
      }
    }
  }
}

const rank = (op: Operation) => (LAST.has(op.operationId) ? 3 : op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1);

async function successCells() {
  const callers: { user: User; world: World }[] = [
    { user: 'viewer', world: worlds.viewerWorld },
    { user: 'operator', world: worlds.visible },
    { user: 'admin', world: worlds.hidden },
  ];
  for (const op of [...operations].sort((a, b) => rank(a) - rank(b))) {
    if (PUBLIC.has(op.operationId)) {
      const value = (r: Ref) => worldValue(worlds.visible, r);
      record(op, 'anonymous', '2xx', await send(op, { world: worlds.visible, value, withFixture: true, user: 'viewer' }));
      for (const bad of BAD_TOKENS) record(op, bad, '2xx', await send(op, { token: tokens[bad], world: worlds.visible, value, withFixture: true, user: 'viewer' }));
      continue;
    }
    if (PUBLIC_REFUSED.has(op.operationId)) {
      const value = (r: Ref) => worldValue(worlds.visible, r);
      record(op, 'anonymous', '400', await send(op, { world: worlds.visible, value, withFixture: true, user: 'viewer' }));
      for (const bad of BAD_TOKENS) record(op, bad, '400', await send(op, { token: tokens[bad], world: worlds.visible, value, withFixture: true, user: 'viewer' }));
      continue;
    }
    if (isMmaProtocol(op)) {
      const fresh: Partial<Record<RefKind, number>> = { ...(await FIXTURES[op.operationId]?.fresh?.({ t, user: 'admin', world: worlds.visible, ids: {} })) };
      const value = (r: Ref) => fresh[r.kind] ?? worldValue(worlds.visible, r);
      record(op, 'MMA', '2xx', await send(op, { user: 'admin', world: worlds.visible, value, withFixture: true }));
      continue;
    }
    for (const { user, world } of callers) {
      if (user === 'viewer' && needsWrite(op)) continue;
      const fixture = FIXTURES[op.operationId];
      const context = { t, user, world, ids: {} };
      const fresh: Partial<Record<RefKind, number>> = { ...(await fixture?.fresh?.(context)) };
      if (op.method !== 'GET') {
        // Rows the call consumes are made for it: a New task, a draft, a template of the caller.
        const kinds = new Set(refsOf(op).map((r) => r.kind));
        if (kinds.has('task')) fresh.task = await newTask(t, world.ids.machine);
        if (kinds.has('draft')) fresh.draft = await newDraft(t, world.classId, user);
        if (kinds.has('template')) fresh.template = await newTemplate(t, user);
      }
      const value = (r: Ref) => (r.name !== 'parentId' && fresh[r.kind] !== undefined ? fresh[r.kind] : worldValue(world, r));
      const res = await send(op, { token: tokens[user], user, world, value, withFixture: true });
      if (user === 'operator' && ADMIN_ONLY.has(op.operationId)) record(op, user, '403', res);
      else record(op, user, '2xx', res, user !== 'admin' && res.status < 300 ? (leak(res.json) ?? undefined) : undefined);
    }
  }
}

describe('the permission matrix over every operation of the OpenAPI document', () => {
  it('documents the routes of this build with an operationId each', () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) expect(op.operationId, `${op.method} ${op.path}`).not.toBe('undefined');
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });

  it('refuses (401, 403, 404) where DESIGN §5 says, and a refused call changes no row', async () => {
    const before = await checksum();
    await refusedCells();
    const after = await checksum();
    const failed = failures(() => true);
    expect(failed.length, table(failed)).toBe(0);
    expect(Object.keys(after).filter((k) => after[k] !== before[k]), 'tables changed by refused calls').toEqual([]);
  }, 300_000);

  it('answers every read of the operator as before when hidden rows are added (no count or row of them shows)', async () => {
    // Reads that audit themselves would differ between the two passes by their own audit rows.
    const reads = operations.filter(
      (op) =>
        op.method === 'GET' && !PUBLIC.has(op.operationId) && !SECRET_READS.has(op.operationId) && !COUNTED_FOR_EVERYONE.has(op.operationId) && !isMmaProtocol(op),
    );
    const pass = async () => {
      const out = new Map<string, string>();
      const value = (r: Ref) => worldValue(worlds.visible, r);
      for (const op of reads) out.set(op.operationId, (await send(op, { token: tokens.operator, user: 'operator', world: worlds.visible, value, withFixture: true })).body);
      return out;
    };
    const before = await pass();
    // Answers that differ between two passes with nothing changed (a signed file's time) say nothing.
    const again = await pass();
    const steady = reads.filter((op) => before.get(op.operationId) === again.get(op.operationId));
    expect(steady.length, 'reads with a steady answer').toBeGreaterThan(reads.length - 3);
    await addHiddenRows(t);
    const after = await pass();
    const changed = steady.filter((op) => before.get(op.operationId) !== after.get(op.operationId));
    const failed = changed.map((op) => ({ operation: op.operationId, column: 'operator', expected: '2xx' as const, got: 200, body: '', problem: `answer changed by hidden rows: ${before.get(op.operationId)!.slice(0, 200)} -> ${after.get(op.operationId)!.slice(0, 200)}` }));
    expect(failed.length, table(failed)).toBe(0);
  }, 300_000);

  it('answers success to admin, to the operator on visible rows and to the viewer on reads, leaking no hidden row', async () => {
    const start = cells.length;
    await successCells();
    const failed = failures((c) => cells.indexOf(c) >= start);
    expect(failed.length, table(failed)).toBe(0);
    // Every operation has every column: nothing was silently skipped.
    const columns = ['anonymous', ...BAD_TOKENS, ...(['viewer', 'operator', 'admin'] as const)];
    const missing = operations
      .filter((op) => !PUBLIC.has(op.operationId) && !PUBLIC_REFUSED.has(op.operationId))
      .flatMap((op) => columns.filter((col) => !cells.some((c) => c.operation === op.operationId && c.column === col)).map((col) => `${op.operationId} ${col}`));
    expect(missing).toEqual([]);
    const hiddenCells = cells.filter((c) => c.column.startsWith('operator, '));
    expect(new Set(hiddenCells.map((c) => c.operation)).size, 'operations with hidden-row cells').toBeGreaterThan(40);
  }, 300_000);
});
