/**
 * Contract fuzzing (issue 9; DESIGN §5 "never a 500 for bad input"): walks the
 * live OpenAPI document and, for every operation, sends bad values (from
 * fast-check generators) in each path parameter, each query parameter and each
 * body property (nested objects and array items too), and bad whole bodies. For
 * every answer it checks:
 *
 * - no 5xx;
 * - an accepted value (2xx) fits the schema the document gives its field
 *   (`json-schema-check.ts`): most kinds of value above are bad for most fields,
 *   and the schema says where one is right (a boolean in a boolean, null where
 *   nullable, any text in a string without pattern); a value outside it that
 *   the server accepts fails the test unless {@link ACCEPTED_OUTSIDE_SCHEMA}
 *   names it with the reason;
 * - every 4xx is problem details, and a 400 names the field that was changed;
 * - a refused request (4xx) changed no row: row triggers installed in this test's
 *   database count every committed insert, update and delete.
 *
 * Every fuzzed request is a base request with one value changed, and each base
 * request is sent once first: it must be accepted, or a refusal of a fuzzed one
 * would say nothing about its value. The requests are signed in as `admin`, so
 * that validation and the services run, not only the permission check. A new
 * route is covered without editing this file when a request generated from its
 * schema is accepted; operations whose rules need realistic input have a base
 * request (body, path or rows) below. `FUZZ_SEED` replays another run of the
 * generators.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT4_MAX } from '@fleet/contracts';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './harness.js';
import { creationPayload, detail, propertiesBody } from './account-fixtures.js';
import { insertAccount } from './fixtures.js';
import { newCloudLibraryFile, newOperation, newRolledOutRollout, newRolloutAwaitingApproval } from './permission-fixtures.js';
import { HEALTHY_SITE_SERVER, newClaimedJumpStart, newClaimedOperation, newClaimedRestore, newMmaAgent, newRegistration, type ClaimedOperation } from './mma-agent-fixtures.js';
import { createSecretBox } from '../src/lib/secret-box.js';
import { insertHandoff } from '../src/modules/sso/sso.repository.js';
import { TEST_DATA_KEY } from './db-url.js';
import { SPARE_CLOUD_IMAGES } from '../src/seed/catalogue.js';
import { fillPath, findPathIds, pathValues as pathValuesOf, type PathIds } from './openapi-requests.js';
import { operationsOf, sampleValue, type JsonSchema, type Operation } from './openapi-walk.js';
import { asText, BAD_BODIES, badValuesFor, bodyFields, SEED, withValue } from './fuzz-values.js';
import { misfit, parameterValue, schemaAt } from './json-schema-check.js';

/** Operations exempt from "a refused request changes no row", and why. */
const WRITES_WHEN_REFUSED: Record<string, string> = {
  login: 'a failed sign-in is audited and counted for the throttle (DESIGN §5)',
  // Issue 27: the hook marks the MMA seen (its connection on the MMA screen) before the body is validated.
  claimMmaOperations: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  mmaHeartbeat: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  appendMmaOperationLog: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  finishMmaOperation: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  reportMmaMachine: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  uploadMmaBackupFile: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  uploadMmaSampleDataFile: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  makeMmaOperationImage: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
  downloadMmaBackupFile: 'an MMA call marks its MMA seen (last_seen_at), refused or not',
};
/**
 * Values outside their documented schema that the server rightly accepts
 * (`operationId field [kind of value]`), and why. None today. (The values
 * accepted inside their schemas were read through once: two were missing
 * bounds, now in the contracts: the name of a jump-start image, which becomes a
 * SaaS image, is a `ZImageName`; the CAA target machine is a host name.)
 */
const ACCEPTED_OUTSIDE_SCHEMA: Record<string, string> = {};
/** Self-service operations that would end the admin session the fuzzer uses; run with a token of their own. */
const OWN_SESSION = new Set(['logout', 'changePassword']);

let t: TestApp;
let operations: Operation[];
let ids: PathIds;
/** An AllInOne account with a site and no machine yet: its launcher is creatable. */
let machineless: { account: number; site: number };
/** Rollouts started by `lead` whose first wave waits for approval (the admin's base decisions). */
let awaitingRollouts: { approve: number; reject: number };
/** A Completed rollout that changed its machine (Roll back; issue 25). */
let rolledOut: number;
let adminToken: string;
/** An MMA whose credential the base request of `revokeMmaAgent` revokes, and the token of another, for the MMA protocol (issue 27). */
let revocableAgent: number;
/** An operation a remote MMA claimed (the MMA protocol's appends and finish; its token is the protocol's). */
let claimed: ClaimedOperation;
/** A RestoreBackup an MMA claimed, of a file its Backup uploaded: the download's base request. */
let restoreClaimed: ClaimedOperation;
/** A CreateJumpStartAmi an MMA claimed: the image call's base request. */
let jumpStartClaimed: ClaimedOperation;
/** The operator's password hash as seeded (`changePassword` is fuzzed as the operator). */
let operatorHash: string;

/**
 * Base requests for operations whose rules need realistic input: the section
 * pushes carry the section as last read, with its `version`; creations name a
 * valid image and an explicit URL name, so that a fuzzed name is judged alone.
 */
/** The single sign-on browser binding every request carries (a sign-in code is exchanged only in its browser). */
const FUZZ_BROWSER = 'f'.repeat(43);
const FUZZ_COOKIE = `fleet_sso=${FUZZ_BROWSER}`;

const BASE_BODIES: Record<string, () => Promise<unknown>> = {
  pushAccountProperties: async () => propertiesBody(await detail(t, ids.account)),
  pushLicenseSettings: async () => {
    const a = await detail(t, ids.account);
    return { ...a.licenseConfig, version: a.versions.license };
  },
  pushInstanceSettings: () => current(`/accounts/${ids.account}/instance-settings`),
  pushBackupSettings: async () => {
    const a = await detail(t, ids.account);
    return { ...a.backupConfig, version: a.versions.backup };
  },
  pushIdleSchedule: async () => {
    const a = await detail(t, ids.account);
    return { idleSchedules: a.idleSchedules, version: a.versions.idle };
  },
  updateSite: async () => {
    const sites = (await current(`/accounts/${ids.account}/sites`)) as { id: number }[];
    const { id: _id, ...site } = sites.find((s) => s.id === ids.site)!;
    return site;
  },
  createAccountDraft: async () => creationPayload({ urlFriendlyName: 'fuzzaccount' }),
  updateDraftAccount: async () => ({ ...creationPayload({ urlFriendlyName: 'fuzzaccount' }), id: ids.draft }),
  createAccountMachine: async () => ({ isLauncher: true, siteId: machineless.site, accountId: machineless.account }),
  updateAccountMachine: async () => ({ managed: true }),
  sendNotification: async () => ({ machines: [ids.machine], title: 'Fuzz', body: 'Fuzz' }),
  // The updater's batches as dry runs (a fuzzed value that is accepted still changes nothing), naming a field to change.
  batchUpdateMachines: async () => ({ machineIds: [ids.machine], managed: true, dryRun: true }),
  batchUpdateAccounts: async () => ({ accountIds: [ids.account], managed: true, dryRun: true }),
  batchUpdateComponentConfigs: async () => ({
    componentConfigs: { [ids.machine]: ((await current(`/machines/${ids.machine}`)) as { config: { componentConfig: unknown } }).config.componentConfig },
    dryRun: true,
  }),
  batchUpdateDeployerConfigs: async () => ({
    deployerConfigs: { [ids.machine]: ((await current(`/machines/${ids.machine}`)) as { config: { deployerConfig: unknown } }).config.deployerConfig },
    dryRun: true,
  }),
  saveUpdaterSelection: async () => ({ name: 'Fuzz selection', kind: 'accounts', query: 'search=fuzz&classIds=1,2' }),
  // The operator's own password again (it is put back after each request: an accepted new password must not lock the fuzzer out).
  changePassword: async () => ({ currentPassword: 'operator', newPassword: 'operator' }),
  createMachineAmi: async () => ({ name: 'Fuzz', irmnVersion: '8.1' }),
  restoreMachineBackup: async () => ({ launcherBackupFile: 'fuzz/launcher/1.bak' }),
  updateSaasImage: () => current(`/cloud/images/${ids.saasImage}`),
  createSaasImage: async () => ({ name: 'fuzz-image', region: SPARE_CLOUD_IMAGES[0].region, cloudImage: SPARE_CLOUD_IMAGES[0].imageId }),
  login: async () => ({ username: 'viewer', password: 'viewer' }),
  // Issue 28: a sign-in code as a single sign-on callback hands one over, for each request (each works once).
  exchangeSsoCode: async () => {
    const code = randomUUID();
    const [viewer] = (await t.database.db.execute<{ id: number }>(sql`select id from users where username = 'viewer'`)).rows;
    await insertHandoff(t.database.db, {
      codeHash: createHash('sha256').update(code).digest('hex'),
      userId: viewer!.id,
      browserHash: createHash('sha256').update(FUZZ_BROWSER).digest('hex'),
      expiresAt: new Date(Date.now() + 60_000),
    });
    return { code };
  },
  // A registration token of its own for each request (each works once).
  registerMmaAgent: () => newRegistration(t),
  // The MMA protocol: no wait, and the claimed operation's lease at the output's current end.
  claimMmaOperations: async () => ({ waitSeconds: 0 }),
  appendMmaOperationLog: async () => ({ attempt: claimed.attempt, stream: 'output', offset: await outputLength(claimed.operationId), text: 'fuzz\n' }),
  finishMmaOperation: async () => ({
    attempt: claimed.attempt,
    status: 'SUCCESS',
    output: { offset: await outputLength(claimed.operationId), text: 'fuzz\n' },
    deployerLog: { offset: 0, text: '' },
  }),
  makeMmaOperationImage: async () => ({ attempt: jumpStartClaimed.attempt }),
  reportMmaMachine: async () => ({ siteServerStatus: HEALTHY_SITE_SERVER }),
  // A cloud library file of its own for each request (a synced file is known afterwards).
  syncLibraryFiles: async () => ({ urls: [await newCloudLibraryFile(t)] }),
  // The edit fields alone, valid for a definition of any data type (null: no default).
  updateComponentConfig: async () => ({
    protected: false,
    siteSpecific: false,
    saasDefaultValue: null,
    onPremDefaultValue: null,
    linuxSpecificValue: null,
    versionId: null,
    deprecatedAtVersionId: null,
  }),
  updateDeployerConfig: async () => ({ protected: false, defaultValue: null, versionId: null, deprecatedAtVersionId: null }),
  // A webhook channel (issue 28): the generated URL is no http(s) URL.
  createNotificationChannel: async () => ({ kind: 'webhook', name: 'Fuzz hook', url: 'https://hooks.example/fuzz' }),
  updateNotificationChannel: async () => ({ name: 'Fuzz hook renamed', url: 'https://hooks.example/fuzz-moved' }),
};

/** Path parameters naming other rows than `ids` (set in beforeAll). */
const BASE_PATHS: Record<string, () => Record<string, string>> = {
  // An account whose launcher is still to create.
  createAccountMachine: () => ({ id: String(machineless.account) }),
  // A wave waiting for approval of a rollout another user started (issue 25), one for each decision.
  approveRolloutWave: () => ({ id: String(awaitingRollouts.approve), wave: '1' }),
  rejectRolloutWave: () => ({ id: String(awaitingRollouts.reject), wave: '1' }),
  rollbackRollout: () => ({ id: String(rolledOut) }),
  revokeMmaAgent: () => ({ id: String(revocableAgent) }),
  appendMmaOperationLog: () => ({ id: String(claimed.operationId) }),
  finishMmaOperation: () => ({ id: String(claimed.operationId) }),
  reportMmaMachine: () => ({ id: String(claimed.machineId) }),
  downloadMmaBackupFile: () => ({ id: String(restoreClaimed.operationId), software: 'launcher' }),
  makeMmaOperationImage: () => ({ id: String(jumpStartClaimed.operationId) }),
};

/** Required query parameters whose schema cannot say what a valid value is. */
const BASE_QUERIES: Record<string, () => Record<string, string>> = {
  listDefaultComponentConfigs: () => ({ ids: String(ids.machine) }),
  listDefaultDeployerConfigs: () => ({ ids: String(ids.machine) }),
  listMachineComponentConfigs: () => ({ ids: String(ids.machine) }),
  listMachineDeployerConfigs: () => ({ ids: String(ids.machine) }),
  // The lease's attempt of the operation the path names.
  downloadMmaBackupFile: () => ({ attempt: String(restoreClaimed.attempt) }),
  uploadMmaBackupFile: () => ({ attempt: String(claimed.attempt) }),
  uploadMmaSampleDataFile: () => ({ attempt: String(claimed.attempt) }),
};

/** The length of an operation's output, characters (the offset of its next append). */
async function outputLength(id: number): Promise<number> {
  const { rows } = await t.database.db.execute<{ n: number }>(sql`select char_length(output)::int as n from operations where id = ${id}`);
  return rows[0]!.n;
}

async function current(url: string): Promise<unknown> {
  const res = await t.call({ method: 'GET', url, token: adminToken });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

async function writes(): Promise<number> {
  const { rows } = await t.database.db.execute<{ n: number }>(sql`select n::int as n from fuzz_writes`);
  return rows[0]!.n;
}

beforeAll(async () => {
  // A claim's long poll held at most a second: a whole body the claim accepts (its fields all default) waits
  // `waitSeconds`' default, 30 s, for an operation that never comes.
  t = await startTestApp({ agent: { mmaClaimWaitMaxSeconds: 1 } });
  adminToken = await t.login('admin');
  const { rows } = await t.database.db.execute<{ hash: string }>(sql`select password_hash as hash from users where username = 'operator'`);
  operatorHash = rows[0]!.hash;
  operations = operationsOf((await t.call({ method: 'GET', url: '/openapi.json' })).json());
  const draft = await t.call({ method: 'POST', url: '/accounts', token: adminToken, body: creationPayload() });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.body}`);
  ids = { ...(await findPathIds(t.database.db)), draft: draft.json().draftAccountId };
  // The rows some base requests need and the demo seed lacks: a credential of the machine, an operation
  // waiting for approval (PROCEED), an account whose launcher is creatable.
  const box = createSecretBox(TEST_DATA_KEY);
  await t.database.db.execute(sql`insert into machine_credentials (machine_id, rdp_password_enc, ssh_private_key_enc)
    values (${ids.machine}, ${box.seal('rdp')}, ${box.seal('ssh')}) on conflict do nothing`);
  ids.operation = await newOperation(t, ids.machine, true);
  const account = await insertAccount(t.database.db, { name: 'Fuzz Machineless' });
  const { rows: site } = await t.database.db.execute<{ id: number }>(sql`insert into sites (account_id, name, url_friendly_name, domain_name)
    values (${account.id}, 'Site 1', 'site1', ${`site1-${account.urlFriendlyName}.fleet.example`}) returning id`);
  machineless = { account: account.id, site: site[0]!.id };
  awaitingRollouts = {
    approve: await newRolloutAwaitingApproval(t, ids.machine, 'lead'),
    reject: await newRolloutAwaitingApproval(t, ids.machine, 'lead'),
  };
  rolledOut = await newRolledOutRollout(t, ids.machine, 'lead');
  revocableAgent = (await newMmaAgent(t)).id;
  claimed = await newClaimedOperation(t);
  restoreClaimed = await newClaimedRestore(t);
  jumpStartClaimed = await newClaimedJumpStart(t);
  // Count every committed row change of every table (a rolled-back change rolls its count back too).
  await t.database.db.execute(sql.raw(`
    create table fuzz_writes (n bigint not null);
    insert into fuzz_writes values (0);
    create function fuzz_count_write() returns trigger language plpgsql as $$
      begin update fuzz_writes set n = n + 1; return null; end $$;
    do $$ declare r record; begin
      for r in select tablename from pg_tables where schemaname = 'public' and tablename <> 'fuzz_writes' loop
        execute format('create trigger fuzz_count_write after insert or update or delete on %I for each row execute function fuzz_count_write()', r.tablename);
      end loop;
    end $$;`));
}, 120_000);
afterAll(() => t.close());

interface Sent {
  operation: Operation;
  field: string;
  label: string;
  url: string;
  query?: Record<string, string | string[]>;
  payload?: string;
  /** The fuzzed value as the server reads it, and the schema the document gives it (the body's for a bad whole body). */
  value: unknown;
  schema: JsonSchema | undefined;
}

const failures: string[] = [];

/**
 * The token a request of `operation` goes with: an MMA's on the MMA protocol; for a self-service one, a session of its own,
 * the operator's password put back first; else the admin's.
 */
async function tokenFor(operation: Operation): Promise<string> {
  if (operation.path.startsWith('/api/v1/mma-agent/')) {
    // The MMAs renew their leases before each call, as they would every 5 s: the fuzz runs longer than MMA_LEASE_S.
    for (const held of [claimed, restoreClaimed, jumpStartClaimed]) {
      await t.call({ method: 'POST', url: '/mma-agent/heartbeat', token: held.token, body: { leases: [{ operationId: held.operationId, attempt: held.attempt }] } });
    }
    const own: Record<string, ClaimedOperation> = { downloadMmaBackupFile: restoreClaimed, makeMmaOperationImage: jumpStartClaimed };
    return (own[operation.operationId] ?? claimed).token;
  }
  if (!OWN_SESSION.has(operation.operationId)) return adminToken;
  await t.database.db.execute(sql`update users set password_hash = ${operatorHash} where username = 'operator' and password_hash <> ${operatorHash}`);
  return t.login('operator');
}

async function send(req: Sent): Promise<void> {
  const { operation } = req;
  const token = await tokenFor(operation);
  const before = await writes();
  const res = await t.app.inject({
    method: operation.method,
    url: req.url,
    query: req.query,
    payload: req.payload,
    headers: { authorization: `Bearer ${token}`, cookie: FUZZ_COOKIE, ...(req.payload !== undefined || operation.body ? { 'content-type': 'application/json' } : {}) },
  });
  const where = `${operation.method} ${operation.path} [${req.field} = ${req.label}]`;
  const fail = (why: string) => void failures.push(`${where}: ${why} (${res.statusCode} ${res.body.slice(0, 300)})`);
  if (res.statusCode >= 500) return fail('server error');
  if (res.statusCode < 400) {
    // Accepted: right only for a value its schema allows (the kinds of value above are bad for most fields, not all).
    const why = req.schema ? misfit(req.schema, req.value, req.field) : 'the document gives it no schema';
    if (why === null || `${operation.operationId} ${req.field} [${req.label}]` in ACCEPTED_OUTSIDE_SCHEMA) return;
    return fail(`accepted a value outside its schema: ${why}`);
  }
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) return fail('not problem details');
  const body = res.json() as { status?: number; title?: string; type?: string; errors?: { propertyName: string }[] };
  if (body.status !== res.statusCode || !body.title) return fail('problem details without status or title');
  if (body.type?.endsWith('/database-input')) return fail('reached the database unchecked (the backstop answered)');
  if (res.statusCode === 400) {
    const names = (body.errors ?? []).map((e) => e.propertyName);
    // A body refused as a whole (unparseable, a forbidden `__proto__` key) names the body.
    const named = req.field === 'body' ? names.length > 0 : names.includes('body') || names.some((n) => n === req.field || n.startsWith(`${req.field}.`) || req.field.startsWith(`${n}.`));
    if (!named) return fail(`400 does not name '${req.field}' (names: ${names.join(', ') || 'none'})`);
  }
  if (!(operation.operationId in WRITES_WHEN_REFUSED) && (await writes()) !== before) fail('a refused request changed rows');
}

/** A body as the server parses it; {@link NOT_JSON} for none or one that does not parse. */
const NOT_JSON = Symbol('not JSON');
function parse(payload: string | undefined): unknown {
  try {
    return payload === undefined ? NOT_JSON : JSON.parse(payload);
  } catch {
    return NOT_JSON;
  }
}
/**
 * Each of {@link BAD_BODIES} parsed once, not once per operation: the deeply
 * nested one is 150,000 objects, and parsing it for each operation with
 * a body cost the test 5 s of CPU. Read only (by `misfit`).
 */
const BAD_BODIES_PARSED = new Map(BAD_BODIES.map(({ payload }) => [payload, parse(payload)]));

/** Operations whose base request is refused. */
const refusedBases: string[] = [];

/** Sends the operation's base request (every fuzzed request is it with one value changed); records it when refused. */
async function sendBase(operation: Operation, url: string, query: Record<string, string | string[]>, body: unknown): Promise<void> {
  // A call without a body is sent as fuzzed only: its base could delete or terminate the rows the others use.
  if (operation.method !== 'GET' && !operation.body) return;
  const token = await tokenFor(operation);
  const res = await t.app.inject({
    method: operation.method,
    url,
    query,
    payload: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, cookie: FUZZ_COOKIE, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
  if (res.statusCode >= 400) refusedBases.push(`${operation.method} ${operation.path} (${operation.operationId}): ${res.statusCode} ${res.body.slice(0, 300)}`);
}

/**
 * Where a request schema lacks a bound: an integer beyond PostgreSQL's `integer`
 * (2^31 - 1) or without a minimum, a string without `maxLength` (or enum), an
 * array without `maxItems`, a map without `maxProperties`. A map's values may be
 * any JSON (configurations), bounded by the body limit.
 */
function unbounded(schema: JsonSchema | undefined, where: string, mapValue = false): string[] {
  if (!schema) return [];
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const found: string[] = [];
  if (type.includes('integer') && !((schema.maximum ?? Infinity) <= INT4_MAX && schema.minimum !== undefined) && !schema.enum) {
    found.push(`${where}: integer without bounds within 1..2^31-1`);
  }
  if (type.includes('number') && (schema.maximum === undefined || schema.minimum === undefined)) found.push(`${where}: number without bounds`);
  if (type.includes('string') && schema.maxLength === undefined && !schema.enum && schema.const === undefined) found.push(`${where}: string without maxLength`);
  if (type.includes('array') && schema.maxItems === undefined) found.push(`${where}: array without maxItems`);
  const map = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (map && schema.maxProperties === undefined) found.push(`${where}: map without maxProperties`);
  if (type.length === 0 && !schema.anyOf && !schema.oneOf && !schema.allOf && !schema.enum && schema.const === undefined && !mapValue) {
    found.push(`${where}: any value`);
  }
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...unbounded(variant, where, mapValue));
  for (const [key, child] of Object.entries(schema.properties ?? {})) found.push(...unbounded(child, `${where}.${key}`));
  if (schema.items) found.push(...unbounded(schema.items, `${where}[]`));
  if (map) found.push(...unbounded(map, `${where}.*`, true));
  return found;
}

describe('bounded input', () => {
  it('states a bound for every id, number, string, list and map that a request carries', () => {
    const found = operations.flatMap((op) => [
      ...op.parameters.flatMap((p) => unbounded(p.schema, `${op.operationId} ${p.in} ${p.name}`)),
      ...unbounded(op.body, `${op.operationId} body`),
    ]);
    expect(found).toEqual([]);
  });
});

describe('contract fuzzing of every operation', () => {
  it('answers every bad path parameter, query parameter, body property and body without a 5xx, with problem details, changing nothing when refused', async () => {
    let count = 0;
    for (const operation of operations) {
      const pathValues = { ...pathValuesOf(operation, ids), ...BASE_PATHS[operation.operationId]?.() };
      const requiredQuery = {
        ...Object.fromEntries(operation.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, asText(sampleValue(p.schema, p.name))])),
        ...BASE_QUERIES[operation.operationId]?.(),
      };
      const base = async () => {
        const make = BASE_BODIES[operation.operationId];
        return make ? make() : operation.body ? sampleValue(operation.body) : undefined;
      };
      const url = fillPath(operation.path, pathValues);
      await sendBase(operation, url, requiredQuery, await base());

      for (const param of operation.parameters) {
        if (param.in !== 'path' && param.in !== 'query') continue;
        for (const { label, value } of badValuesFor(`${operation.operationId}.${param.name}`)) {
          const body = await base();
          const payload = body === undefined ? undefined : JSON.stringify(body);
          const text = asText(value);
          const sent = { operation, field: param.name, label, query: requiredQuery, payload, schema: param.schema };
          if (param.in === 'path') {
            const joined = Array.isArray(text) ? text.join(',') : text;
            await send({ ...sent, url: fillPath(operation.path, { ...pathValues, [param.name]: joined }), value: parameterValue(param.schema, joined) });
          } else {
            await send({ ...sent, url, query: { ...requiredQuery, [param.name]: text }, value: parameterValue(param.schema, text) });
          }
          count++;
        }
      }

      if (!operation.body) continue;
      for (const field of bodyFields(operation.body, await base())) {
        const schema = schemaAt(operation.body, field);
        for (const { label, value } of badValuesFor(`${operation.operationId}.${field.join('.')}`)) {
          const payload = JSON.stringify(withValue(await base(), field, value));
          await send({ operation, field: field.join('.'), label, url, query: requiredQuery, payload, value: JSON.parse(JSON.stringify(value)), schema });
          count++;
        }
      }
      for (const { label, payload } of BAD_BODIES) {
        await send({ operation, field: 'body', label, url, query: requiredQuery, payload, value: BAD_BODIES_PARSED.get(payload), schema: operation.body });
        count++;
      }
    }
    expect(refusedBases, 'base requests refused: a fuzzed value they carry would be judged against a refusal').toEqual([]);
    expect(operations.length).toBeGreaterThan(50);
    expect(count).toBeGreaterThan(1000);
    expect(failures, `seed ${SEED}: ${failures.length} of ${count} requests failed:\n${failures.join('\n')}`).toEqual([]);
  }, 600_000);
});
