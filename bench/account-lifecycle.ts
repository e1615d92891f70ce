/**
 * bench/account-lifecycle: creating an account and pushing its sections, on the
 * demo fleet (spec 1 §2 Create account and Edit account, §7 calls; DESIGN §6
 * planned sites and machines).
 *
 * 1. Create: `POST /accounts` (the draft) then `POST /accounts/create-from-draft`
 *    for an InstancePerSiteMaster account with 1 site (2 machines: launcher plus
 *    one site master) and with 50 sites (51 machines). Reported per size over
 *    `BENCH_CREATE_RUNS` runs (default 10): the draft call, the create call, and
 *    the whole time until `GET /accounts/{id}/machines` and `/sites` list every
 *    planned row (ms, p50 / p95 / max).
 * 2. Push: `BENCH_PUSHES` (default 30) sequential pushes of each section of one
 *    created 1-site account, each changing one field and sending the version the
 *    previous push answered: `PUT /accounts/{id}`, `/license-settings`,
 *    `/instance-settings`, `/backup-settings`, `/idle-schedule` (ms, p50 / p95 /
 *    max, non-2xx answers counted as errors).
 *
 * The server runs on its own data folder (`.bench-data/account-lifecycle`, demo
 * seed made on first use); each run adds its accounts there. Created machines
 * queue CreateMachine tasks that the simulated cloud works off in the
 * background (2 s per transition), so the pushes share the CPU with them, as
 * on a live console.
 */
import type {
  TAccountDetail,
  TAccountPropertiesResponse,
  TBackupSettings,
  TCreateAccountRequest,
  TIdleScheduleSettings,
  TInstanceSettings,
  TLicenseSettings,
} from '@fleet/contracts';
import { cpus, loadavg } from 'node:os';
import { startServer, token } from './lib/server.js';
import { percentile } from './lib/load.js';

const CREATE_RUNS = Number(process.env.BENCH_CREATE_RUNS ?? 10);
const PUSHES = Number(process.env.BENCH_PUSHES ?? 30);
/** An active image of the demo seed (us-east-1). */
const IMAGE = 'irmn-8.1.3-win2022-use1';

export type Call = <T>(method: string, path: string, body?: unknown) => Promise<{ status: number; ms: number; json: T }>;

function client(baseUrl: string, bearer: string): Call {
  return async (method, path, body) => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    return { status: res.status, ms, json: (text ? JSON.parse(text) : undefined) as never };
  };
}

function must<T>(r: { status: number; json: T }, what: string): T {
  if (r.status < 200 || r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** p50 / p95 / max of `values` (ms), rounded to 0.1 ms. */
function stats(values: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), max: round(sorted[sorted.length - 1] ?? NaN) };
}

function creationBody(name: string, siteCount: number): TCreateAccountRequest {
  return {
    name,
    classId: 2,
    contactName: 'Bench Contact',
    contactEmail: 'bench@example.com',
    licenseConfig: { instancePolicy: 'InstancePerSiteMaster', maxSites: Math.max(siteCount, 1) },
    machineConfig: { vmImageName: IMAGE },
    sites: Array.from({ length: siteCount }, (_, i) => ({ name: `Site ${i + 1}`, urlFriendlyName: `site${i + 1}`, port: 8080 })),
  };
}

interface CreateTiming {
  draftMs: number;
  createMs: number;
  totalMs: number;
  accountId: number;
}

/** Draft, create, then read machines and sites until every planned row is listed. */
async function createOnce(call: Call, name: string, siteCount: number): Promise<CreateTiming> {
  const t0 = performance.now();
  const draft = await call<{ draftAccountId: number }>('POST', 'accounts', creationBody(name, siteCount));
  const { draftAccountId } = must(draft, 'POST /accounts');
  const created = await call<{ accountId: number }>('POST', 'accounts/create-from-draft', { draftAccountId });
  const { accountId } = must(created, 'POST /accounts/create-from-draft');
  const expectedMachines = siteCount + 1;
  for (let attempt = 0; ; attempt++) {
    const machines = must(await call<{ totalItems: number }>('GET', `accounts/${accountId}/machines?limit=1`), 'GET machines');
    const sites = must(await call<unknown[]>('GET', `accounts/${accountId}/sites`), 'GET sites');
    if (machines.totalItems === expectedMachines && sites.length === siteCount) break;
    if (attempt > 100) throw new Error(`account ${accountId}: ${machines.totalItems} machines, ${sites.length} sites after 100 reads`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { draftMs: draft.ms, createMs: created.ms, totalMs: performance.now() - t0, accountId };
}

/** A section push: reads the start state once, then the body of push `i` from the previous answer. */
export interface Section<S> {
  label: string;
  path: (id: number) => string;
  start: (call: Call, id: number) => Promise<S>;
  next: (previous: S, i: number) => unknown;
}

/** The section pushes measured, each with how it reads its start state and builds push `i`. */
export const ACCOUNT_SECTIONS = [
  {
    label: 'PUT /accounts/{id}',
    path: (id) => `accounts/${id}`,
    start: async (call, id) => {
      const a = must(await call<TAccountDetail>('GET', `accounts/${id}`), 'GET account');
      const { classId, parentId, name, urlFriendlyName, description, customer, contact, maintainer, billing, managed, whiteGlove, autoTest, autoTestBranch } = a;
      return { classId, parentId, name, urlFriendlyName, description, customer, contact, maintainer, billing, managed, whiteGlove, autoTest, autoTestBranch, version: a.versions.properties };
    },
    next: (p, i) => ({ ...p, description: `bench push ${i}` }),
  } satisfies Section<TAccountPropertiesResponse>,
  {
    label: 'PUT /accounts/{id}/license-settings',
    path: (id) => `accounts/${id}/license-settings`,
    start: async (call, id) => {
      const a = must(await call<TAccountDetail>('GET', `accounts/${id}`), 'GET account');
      return { ...a.licenseConfig, version: a.versions.license };
    },
    next: (p, i) => ({ ...p, maxUsers: 10 + (i % 50) }),
  } satisfies Section<TLicenseSettings>,
  {
    label: 'PUT /accounts/{id}/instance-settings',
    path: (id) => `accounts/${id}/instance-settings`,
    start: async (call, id) => must(await call<TInstanceSettings>('GET', `accounts/${id}/instance-settings`), 'GET instance settings'),
    next: (p) => ({ ...p, showInGrafana: !p.showInGrafana }),
  } satisfies Section<TInstanceSettings>,
  {
    label: 'PUT /accounts/{id}/backup-settings',
    path: (id) => `accounts/${id}/backup-settings`,
    start: async (call, id) => {
      const a = must(await call<TAccountDetail>('GET', `accounts/${id}`), 'GET account');
      return { ...a.backupConfig!, version: a.versions.backup };
    },
    next: (p, i) => ({ ...p, dailyDaysToRetain: 1 + (i % 7) }),
  } satisfies Section<TBackupSettings>,
  {
    label: 'PUT /accounts/{id}/idle-schedule',
    path: (id) => `accounts/${id}/idle-schedule`,
    start: async (call, id) => {
      const a = must(await call<TAccountDetail>('GET', `accounts/${id}`), 'GET account');
      return { idleSchedules: a.idleSchedules, version: a.versions.idle };
    },
    next: (p, i) => ({
      idleSchedules: [{ stopAt: new Date(Date.now() + (i + 1) * 3_600_000).toISOString(), resumeAfter: i % 24 }],
      version: p.version,
    }),
  } satisfies Section<TIdleScheduleSettings>,
];

async function pushSection<S>(call: Call, accountId: number, section: Section<S>) {
  let state: S = await section.start(call, accountId);
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < PUSHES; i++) {
    const r = await call<S>('PUT', section.path(accountId), section.next(state, i));
    latencies.push(r.ms);
    if (r.status >= 200 && r.status < 300) state = r.json;
    else {
      errors += 1;
      if (errors === 1) console.log(`  ${section.label} answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
      state = await section.start(call, accountId);
    }
  }
  return { ...stats(latencies), errors };
}

export async function benchAccountLifecycle(): Promise<void> {
  const server = await startServer({ name: 'account-lifecycle', seed: 'demo' });
  try {
    const call = client(server.baseUrl, await token(server.baseUrl));
    const stamp = Date.now().toString(36);
    console.log(`bench/account-lifecycle: demo fleet; ${CREATE_RUNS} creations per size, ${PUSHES} pushes per section; ${machineLoad()}`);

    await createOnce(call, `Bench Warmup ${stamp}`, 1); // warm-up: first queries, JIT
    console.log('| create (InstancePerSiteMaster) | machines | draft p50 / p95 ms | create-from-draft p50 / p95 ms | until rows listed p50 / p95 / max ms |');
    console.log('|---|---|---|---|---|');
    let pushAccount = 0;
    for (const siteCount of [1, 50]) {
      const runs: CreateTiming[] = [];
      for (let i = 0; i < CREATE_RUNS; i++) runs.push(await createOnce(call, `Bench Lifecycle ${stamp} ${siteCount}s ${i}`, siteCount));
      if (siteCount === 1) pushAccount = runs[0]!.accountId;
      const draft = stats(runs.map((r) => r.draftMs));
      const create = stats(runs.map((r) => r.createMs));
      const total = stats(runs.map((r) => r.totalMs));
      console.log(
        `| ${siteCount} site${siteCount === 1 ? '' : 's'} | ${siteCount + 1} | ${draft.p50} / ${draft.p95} | ${create.p50} / ${create.p95} | ${total.p50} / ${total.p95} / ${total.max} |`,
      );
    }

    console.log(`Pushes on account ${pushAccount} (1 site), sequential`);
    console.log('| section | pushes | p50 ms | p95 ms | max ms | errors |');
    console.log('|---|---|---|---|---|---|');
    for (const section of ACCOUNT_SECTIONS as Section<unknown>[]) {
      const r = await pushSection(call, pushAccount, section);
      console.log(`| ${section.label} | ${PUSHES} | ${r.p50} | ${r.p95} | ${r.max} | ${r.errors} |`);
    }
    console.log(`server RSS after the runs: ${server.rssMiB()} MiB; ${machineLoad()}`);
  } finally {
    await server.stop();
  }
}

/** The 1-minute load average against the core count: these numbers mean little on a busy machine. */
const machineLoad = () => `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;

if (import.meta.url === `file://${process.argv[1]}`) await benchAccountLifecycle();
