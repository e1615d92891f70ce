/**
 * bench/fleet: the fleet running itself on the scale fleet (issue 11), probes on
 * at `PROBE_INTERVAL_S` 60 (simulated cloud and agent delays zero), in one
 * process as `npm start` runs (`BENCH_FLEET_WORKER=1`: the API and a worker
 * process, `ROLE` api and worker, on one database and the same 2 cores).
 *
 * 1. Probes: the URLs due per second (targets / interval) against the probes the
 *    worker stores per second over `BENCH_PROBE_SECONDS` (default 180, three
 *    intervals), and the cursor's lag behind the clock sampled every 5 s (budget:
 *    it does not grow).
 * 2. Database growth per hour: bytes of the raw samples over the same window,
 *    extrapolated to an hour, plus an hour of rollup rows (one per URL, measured
 *    on a copy of the current hour's rollup) and the statistics rows.
 * 3. Each viewer's first page (Issues, Operations, Machines, States, Cloud
 *    Instances, Request Statistics, as the console asks for it, and with the
 *    filters and sorts of issue 24 point 7) at 1 and 20 clients while the
 *    probes run (budget: p95 under 50 ms at 20), as admin; the request
 *    statistics also as operator (Customer Production hidden).
 *
 * `BENCH_FLEET_PAGES` (a regular expression) keeps the pages whose viewer name
 * matches, `BENCH_PROBE_SECONDS` shortens the probes' window: for measuring one
 * page's change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { root, startServer, token } from './lib/server.js';
import { MACHINES_VIEWER_PAGE_SIZE, VIEWER_PAGE_SIZE } from '@fleet/contracts';
import { printClientsTable } from './lib/load.js';

/**
 * The first page each viewer asks for (spec 2 §2.5–2.10), path under /api/v1:
 * as it opens, and with the filters and sorts of issue 24 point 7 the operator
 * picks most (a class, a status, a time range, the other order).
 */
const P = `startIndex=0&limit=${VIEWER_PAGE_SIZE}`;
/** The last day, the viewers' time range filter (ISO 8601 with a zone). */
const DAY = () => `from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`;
export const VIEWER_FIRST_PAGES: [string, string][] = [
  ['Issues', `/issues?${P}`],
  ['Issues: all, Internal Testing, by count', `/issues?${P}&status=all&classId=2&sort=count`],
  ['Issues: last day, oldest first', `/issues?${P}&${DAY()}&sort=first&order=asc`],
  ['Operations', `/operations?${P}`],
  ['Operations: FAILURE, Internal Testing, by start', `/operations?${P}&status=FAILURE&classId=2&sort=started`],
  ['Operations: SmokeTest, last day, oldest first', `/operations?${P}&type=SmokeTest&${DAY()}&order=asc`],
  ['Machines', `/machines?startIndex=0&limit=${MACHINES_VIEWER_PAGE_SIZE}`],
  ['Machines: needs admin', `/machines?startIndex=0&limit=${MACHINES_VIEWER_PAGE_SIZE}&needsAdmin=true`],
  ['Machines: Internal Testing, unmanaged', `/machines?startIndex=0&limit=${MACHINES_VIEWER_PAGE_SIZE}&classId=2&unmanaged=true`],
  ['States (Current)', `/version-states?state=Current&${P}`],
  ['States (Current): Internal Testing, siteMaster, oldest first', `/version-states?state=Current&${P}&classId=2&component=siteMaster&sort=timestamp&order=asc`],
  ['States (Historical): last day', `/version-states?state=Historical&${P}&${DAY()}&sort=timestamp`],
  ['States (Desired)', `/version-states?state=Desired&${P}`],
  ['Cloud Instances', `/cloud-instance?${P}`],
  ['Cloud Instances: Internal Testing, running, active, oldest first', `/cloud-instance?${P}&classId=2&status=running&active=true&sort=timestamp&order=asc`],
  ['Request Statistics', `/request-statistics?${P}`],
  ['Request Statistics: failing, Internal Testing, by machine', `/request-statistics?${P}&status=failure&classId=2&sort=machine`],
  ['Request Statistics: by last update', `/request-statistics?${P}&sort=lastUpdate&order=desc`],
];

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROBE_SECONDS = Number(process.env.BENCH_PROBE_SECONDS ?? 180);
const INTERVAL_S = 60;

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The URLs the worker probes (the due-target rule of engine/probes, every phase). */
const TARGETS = `select (count(*) filter (where m.is_launcher and coalesce(m.component_config->>'launcher.publicUrl', '') <> '')
    + count(*) filter (where m.is_site_master and coalesce(m.component_config->>'siteMaster.siteUrl', '') <> ''))::int as n,
    count(*)::int as machines
  from machines m join lateral (
    select case when ci.next_status is not null and ci.settles_at <= now() then ci.next_status else ci.status end as status
    from cloud_instances ci where ci.machine_id = m.id and ci.active order by ci.id desc limit 1) i on true
  where m.deleted_at is null and not m.stop and not m.idle and not m.terminate and i.status <> 'pending'`;

const RAW_BYTES = `select coalesce(sum(pg_total_relation_size(i.inhrelid)), 0)::bigint as bytes
  from pg_inherits i where i.inhparent = 'probe_samples'::regclass`;

export async function benchFleet(): Promise<void> {
  const server = await startServer({
    name: 'scale',
    seed: 'scale',
    env: { SIM_CLOUD_DELAY_MS: '0', SIM_AGENT_DELAY_MS: '0', PROBE_INTERVAL_S: String(INTERVAL_S) },
    // BENCH_FLEET_WORKER=1: the engine and the probes in a worker process of their own (ROLE worker), the API in
    // another (ROLE api), as a large deployment may run. The probes' work is mostly PostgreSQL's (the worker
    // process used 3-5 % of a core at 1,446 probes a second), and with two processes the push channel's events
    // go through PostgreSQL too: on this 2-core machine the pages measured no faster that way (2026-11-28).
    worker: process.env.BENCH_FLEET_WORKER === '1',
  });
  const probeWorker = server.worker ?? server.process;
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  const bearer = await token(server.baseUrl);
  try {
    const targets = (await db.query<{ n: number; machines: number }>(TARGETS)).rows[0]!;
    const due = targets.n / INTERVAL_S;
    console.log(`\n### bench/fleet: probes at ${INTERVAL_S} s on the scale fleet`);
    console.log(`${targets.machines} machines meant to run, ${targets.n} URLs: ${due.toFixed(0)} probes due a second\n`);

    // Let the worker catch up with the start (the first tick covers a whole interval).
    await new Promise((r) => setTimeout(r, 15_000));
    const count = async () => Number((await db.query<{ n: string }>(`select count(*)::bigint as n from probe_samples`)).rows[0]!.n);
    const lag = async () =>
      Number((await db.query<{ ms: string }>(`select (extract(epoch from clock_timestamp() - through) * 1000)::bigint as ms from probe_cursor where id = 1`)).rows[0]!.ms);
    const raw = async () => Number((await db.query<{ bytes: string }>(RAW_BYTES)).rows[0]!.bytes);
    // CPU of the process that runs the probes over the window, from /proc.
    const cpuMs = () => {
      const fields = readFileSync(`/proc/${probeWorker.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
    };
    const cpu0 = cpuMs();
    const n0 = await count();
    const b0 = await raw();
    const t0 = Date.now();
    const lags: number[] = [];
    while (Date.now() - t0 < PROBE_SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 5000));
      lags.push(await lag());
    }
    const seconds = (Date.now() - t0) / 1000;
    const cpuShare = (cpuMs() - cpu0) / 1000 / seconds;
    const n1 = await count();
    const b1 = await raw();
    const rate = (n1 - n0) / seconds;
    const third = Math.max(1, Math.floor(lags.length / 3));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const early = avg(lags.slice(0, third));
    const late = avg(lags.slice(-third));
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| probes stored per second (${seconds.toFixed(0)} s) | ${rate.toFixed(0)} (due: ${due.toFixed(0)}) |`);
    console.log(`| cursor lag, first third / last third / max | ${early.toFixed(0)} / ${late.toFixed(0)} / ${Math.max(...lags)} ms |`);
    console.log(`| lag grows | ${late > early + 2000 ? 'YES' : 'no'} |`);
    console.log(`| ${server.worker ? 'worker' : 'server'} process CPU (probes; their SQL is PostgreSQL's) | ${(cpuShare * 100).toFixed(0)} % of a core |`);

    // Growth: raw samples measured; one rollup row per URL an hour, measured on a copy of this hour's rollup.
    const rawPerHour = ((b1 - b0) / seconds) * 3600;
    await db.query(`create temp table rollup_copy as
      select machine_id, kind, date_trunc('hour', now()) as hour, count(*)::int as n, count(*) filter (where ok)::int as ok,
        coalesce(sum(latency_ms) filter (where ok), 0)::float8 as lat_sum
      from probe_samples where at >= date_trunc('hour', now()) group by machine_id, kind`);
    await db.query(`alter table rollup_copy add primary key (machine_id, kind, hour)`);
    await db.query(`create index on rollup_copy (hour)`);
    const copy = (await db.query<{ rows: number; bytes: string }>(`select (select count(*) from rollup_copy)::int as rows, pg_total_relation_size('rollup_copy')::bigint as bytes`)).rows[0]!;
    const rollupPerHour = copy.rows > 0 ? (Number(copy.bytes) / copy.rows) * targets.n : 0;
    const statistics = Number((await db.query<{ bytes: string }>(`select pg_total_relation_size('request_statistics')::bigint as bytes`)).rows[0]!.bytes);
    console.log(`| raw samples per hour (measured ${MiB(b1 - b0)} in ${seconds.toFixed(0)} s) | ${MiB(rawPerHour)} |`);
    console.log(`| rollups per hour (${targets.n} rows) | ${MiB(rollupPerHour)} |`);
    console.log(`| steady state: a day of raw + 8 days of rollups + statistics rows | ${MiB(rawPerHour * 25 + rollupPerHour * 192 + statistics)} |`);

    // BENCH_FLEET_PAGES=<regular expression>: only the pages whose viewer name matches (and the operator's page when 'operator' does).
    const only = process.env.BENCH_FLEET_PAGES ? new RegExp(process.env.BENCH_FLEET_PAGES, 'i') : null;
    for (const [viewer, path] of VIEWER_FIRST_PAGES) {
      if (only && !only.test(viewer)) continue;
      console.log(`\n${viewer} viewer, first page: GET ${path}, probes running:\n`);
      await printClientsTable({ url: `${server.baseUrl}/api/v1${path}`, headers: { authorization: `Bearer ${bearer}` }, seconds: SECONDS });
    }
    if (only && !only.test('operator')) return;
    const operator = await token(server.baseUrl, 'operator');
    console.log('\nthe same as operator (Customer Production hidden):\n');
    await printClientsTable({ url: `${server.baseUrl}/api/v1/request-statistics?limit=${VIEWER_PAGE_SIZE}`, headers: { authorization: `Bearer ${operator}` }, seconds: SECONDS });
  } finally {
    await db.end();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchFleet();
}
