/**
 * Contract fuzzing (issue 9; DESIGN §5 "never a 500 for bad input"): walks the
 * live OpenAPI document and, for every operation, sends bad values (from
 * fast-check generators) in each path parameter, each query parameter and each
 * body property (nested objects and array items too), and bad whole bodies. For
 * every answer it checks:
 *
 * - no 5xx;
 * - every 4xx is problem details, and a 400 names the field that was changed;
 * - a refused request (4xx) changed no row: row triggers installed in this test's
 *   database count every committed insert, update and delete.
 *
 * The requests are signed in as `admin`, so that validation and the services run,
 * not only the permission check. A new route is covered without editing this file;
 * only operations whose rules need realistic input have a base request below.
 * `FUZZ_SEED` replays another run of the generators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INT4_MAX } from '@fleet/contracts';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './harness.js';
import { creationPayload, detail, propertiesBody } from './account-fixtures.js';
import { SPARE_CLOUD_IMAGES } from '../src/seed/catalogue.js';
import { fillPath, findPathIds, pathValues as pathValuesOf, type PathIds } from './openapi-requests.js';
import { operationsOf, sampleValue, type JsonSchema, type Operation } from './openapi-walk.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** Operations exempt from "a refused request changes no row", and why. */
const WRITES_WHEN_REFUSED: Record<string, string> = {
  login: 'a failed sign-in is audited and counted for the throttle (DESIGN §5)',
};
/** Self-service operations that would end the admin session the fuzzer uses; run with a token of their own. */
const OWN_SESSION = new Set(['logout', 'changePassword']);

interface BadValue {
  label: string;
  arb: fc.Arbitrary<unknown>;
}

/** The kinds of bad value the issue lists, each from a generator. */
const BAD_VALUES: BadValue[] = [
  { label: 'integer past 2^31', arb: fc.oneof(fc.constant(2 ** 31), fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER })) },
  { label: 'integer past 2^53', arb: fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 70n }).map((n) => Number(n)) },
  { label: 'negative', arb: fc.oneof(fc.constant(-1), fc.integer({ min: -(2 ** 31), max: -1 })) },
  { label: 'fraction', arb: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)) },
  { label: 'wrong type (boolean)', arb: fc.boolean() },
  { label: '100,000 characters', arb: fc.constantFrom('x', 'é', '9').map((c) => c.repeat(100_000)) },
  { label: 'NUL byte', arb: fc.string({ maxLength: 8 }).map((s) => `${s}\u0000${s}`) },
  { label: 'emoji', arb: fc.constantFrom('🚀', '👩‍👩‍👧‍👦', '🇫🇷', '💥x') },
  { label: 'nested object', arb: fc.oneof(fc.constant(deepObject(200)), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 4 })) },
  { label: 'null', arb: fc.constant(null) },
  { label: 'array', arb: fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 4 }) },
];

/** Bad whole bodies: an empty body, null, an array, a string, a number, a deep nesting. */
const BAD_BODIES: { label: string; payload: string | undefined }[] = [
  { label: 'empty body', payload: undefined },
  { label: 'body null', payload: 'null' },
  { label: 'body array', payload: '[{"a":1}]' },
  { label: 'body string', payload: '"text"' },
  { label: 'body number', payload: '2147483648' },
  // About 1 MB (the body limit) of nesting: nothing may walk it recursively or copy its path per level.
  { label: 'body deeply nested', payload: `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}` },
  { label: 'body not JSON', payload: '{"a":' },
];

function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** One value of each kind, different for each field (seeded by the field's name). */
function badValuesFor(field: string): { label: string; value: unknown }[] {
  let seed = SEED;
  for (const ch of field) seed = (seed * 31 + ch.charCodeAt(0)) | 0;
  return BAD_VALUES.map(({ label, arb }) => ({ label, value: fc.sample(arb, { numRuns: 1, seed })[0] }));
}

/** A query string or path value carrying `value` as a client would send it. */
function asText(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Math.abs(value) >= 2 ** 53) return BigInt(value).toString();
  return JSON.stringify(value);
}

/** Body property paths to fuzz: every property, nested objects and the first item of arrays, to depth 3. */
function bodyFields(schema: JsonSchema | undefined, base: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (!schema || depth > 3) return [];
  const variant = schema.anyOf?.find((v) => v.properties || v.items) ?? schema;
  const fields: string[][] = [];
  for (const [key, child] of Object.entries(variant.properties ?? {})) {
    const path = [...prefix, key];
    fields.push(path);
    const value = (base as Record<string, unknown> | undefined)?.[key];
    fields.push(...bodyFields(child, value, path, depth + 1));
  }
  if (variant.items && Array.isArray(base) && base.length > 0) fields.push(...bodyFields(variant.items, base[0], [...prefix, '0'], depth + 1));
  return fields;
}

/** `body` with the value at `path` replaced (intermediate objects made as needed). */
function withValue(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
  return copy;
}

let t: TestApp;
let operations: Operation[];
let ids: PathIds;
let adminToken: string;

/**
 * Base requests for operations whose rules need realistic input: the section
 * pushes carry the section as last read, with its `version`; creations name a
 * valid image and an explicit URL name, so that a fuzzed name is judged alone.
 */
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
  createAccountMachine: async () => ({ isLauncher: false, siteId: ids.site, accountId: ids.account }),
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
  createMachineAmi: async () => ({ name: 'Fuzz', irmnVersion: '8.1' }),
  restoreMachineBackup: async () => ({ launcherBackupFile: 'fuzz/launcher/1.bak' }),
  updateSaasImage: () => current(`/cloud/images/${ids.saasImage}`),
  createSaasImage: async () => ({ name: 'fuzz-image', region: SPARE_CLOUD_IMAGES[0].region, cloudImage: SPARE_CLOUD_IMAGES[0].imageId }),
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
};

/** Required query parameters whose schema cannot say what a valid value is. */
const BASE_QUERIES: Record<string, () => Record<string, string>> = {
  listDefaultComponentConfigs: () => ({ ids: String(ids.machine) }),
  listDefaultDeployerConfigs: () => ({ ids: String(ids.machine) }),
  listMachineComponentConfigs: () => ({ ids: String(ids.machine) }),
  listMachineDeployerConfigs: () => ({ ids: String(ids.machine) }),
};

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
  t = await startTestApp();
  adminToken = await t.login('admin');
  operations = operationsOf((await t.call({ method: 'GET', url: '/openapi.json' })).json());
  const draft = await t.call({ method: 'POST', url: '/accounts', token: adminToken, body: creationPayload() });
  if (draft.statusCode !== 200) throw new Error(`draft: ${draft.body}`);
  ids = { ...(await findPathIds(t.database.db)), draft: draft.json().draftAccountId };
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
  /** Field names of the base request's 400, when it is refused. */
  baseErrors?: string[];
}

const failures: string[] = [];

async function send(req: Sent): Promise<void> {
  const { operation } = req;
  const token = OWN_SESSION.has(operation.operationId) ? await t.login('operator') : adminToken;
  const before = await writes();
  const res = await t.app.inject({
    method: operation.method,
    url: req.url,
    query: req.query,
    payload: req.payload,
    headers: { authorization: `Bearer ${token}`, ...(req.payload !== undefined || operation.body ? { 'content-type': 'application/json' } : {}) },
  });
  const where = `${operation.method} ${operation.path} [${req.field} = ${req.label}]`;
  const fail = (why: string) => void failures.push(`${where}: ${why} (${res.statusCode} ${res.body.slice(0, 300)})`);
  if (res.statusCode >= 500) return fail('server error');
  if (res.statusCode < 400) return;
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) return fail('not problem details');
  const body = res.json() as { status?: number; title?: string; type?: string; errors?: { propertyName: string }[] };
  if (body.status !== res.statusCode || !body.title) return fail('problem details without status or title');
  if (body.type?.endsWith('/database-input')) return fail('reached the database unchecked (the backstop answered)');
  if (res.statusCode === 400) {
    const names = (body.errors ?? []).map((e) => e.propertyName);
    // The value was accepted, and the base request's own errors remain (its rules need input the schema cannot tell).
    if (req.baseErrors && names.join() === req.baseErrors.join()) return;
    // A body refused as a whole (unparseable, a forbidden `__proto__` key) names the body.
    const named = req.field === 'body' ? names.length > 0 : names.includes('body') || names.some((n) => n === req.field || n.startsWith(`${req.field}.`) || req.field.startsWith(`${n}.`));
    if (!named) return fail(`400 does not name '${req.field}' (names: ${names.join(', ') || 'none'})`);
  }
  if (!(operation.operationId in WRITES_WHEN_REFUSED) && (await writes()) !== before) fail('a refused request changed rows');
}

/** Operations whose base request is refused with 400 (printed, so that a base can be added above). */
const refusedBases: string[] = [];

/** The field names of the base request's 400, or undefined when it is not refused as invalid. */
async function baseRequestErrors(operation: Operation, url: string, query: Record<string, string | string[]>, body: unknown) {
  if (operation.method !== 'GET' && !operation.body) return undefined;
  const res = await t.app.inject({
    method: operation.method,
    url,
    query,
    payload: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
  if (res.statusCode !== 400) return undefined;
  const names = (res.json() as { errors?: { propertyName: string }[] }).errors?.map((e) => e.propertyName) ?? [];
  refusedBases.push(`${operation.operationId}: ${names.join(', ')}`);
  return names;
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
    let sent = 0;
    for (const operation of operations) {
      const pathValues = pathValuesOf(operation, ids);
      const requiredQuery = {
        ...Object.fromEntries(operation.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, asText(sampleValue(p.schema, p.name))])),
        ...BASE_QUERIES[operation.operationId]?.(),
      };
      const base = async () => {
        const make = BASE_BODIES[operation.operationId];
        return make ? make() : operation.body ? sampleValue(operation.body) : undefined;
      };
      const url = fillPath(operation.path, pathValues);
      const baseErrors = await baseRequestErrors(operation, url, requiredQuery, await base());

      for (const param of operation.parameters) {
        if (param.in !== 'path' && param.in !== 'query') continue;
        for (const { label, value } of badValuesFor(`${operation.operationId}.${param.name}`)) {
          const body = await base();
          const payload = body === undefined ? undefined : JSON.stringify(body);
          if (param.in === 'path') {
            const text = asText(value);
            const bad = fillPath(operation.path, { ...pathValues, [param.name]: Array.isArray(text) ? text.join(',') : text });
            await send({ operation, field: param.name, label, url: bad, query: requiredQuery, payload, baseErrors });
          } else {
            await send({ operation, field: param.name, label, url, query: { ...requiredQuery, [param.name]: asText(value) }, payload, baseErrors });
          }
          sent++;
        }
      }

      if (!operation.body) continue;
      for (const field of bodyFields(operation.body, await base())) {
        for (const { label, value } of badValuesFor(`${operation.operationId}.${field.join('.')}`)) {
          const payload = JSON.stringify(withValue(await base(), field, value));
          await send({ operation, field: field.join('.'), label, url, query: requiredQuery, payload, baseErrors });
          sent++;
        }
      }
      for (const { label, payload } of BAD_BODIES) {
        await send({ operation, field: 'body', label, url, query: requiredQuery, payload });
        sent++;
      }
    }
    if (refusedBases.length > 0) console.log(`Base requests refused as invalid (fuzzed at the schema only):\n${refusedBases.join('\n')}`);
    expect(operations.length).toBeGreaterThan(50);
    expect(sent).toBeGreaterThan(1000);
    expect(failures, `seed ${SEED}: ${failures.length} of ${sent} requests failed:\n${failures.join('\n')}`).toEqual([]);
  }, 600_000);
});
