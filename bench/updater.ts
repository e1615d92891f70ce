/**
 * bench/updater: the Updater on the scale fleet (issue 13), simulated agent and
 * cloud delays zero.
 *
 * 1. Picks 10,000 machines that can deploy at once (managed, not in manual
 *    maintenance, no Panic, not in operation mode Anomaly, instance running,
 *    no operation unfinished, a class whose deploys need no approval and is not
 *    on standby: a deploy that waits for approval would hold its wave until the
 *    wave's timeout) and a siteMaster commit none of them is meant to run.
 * 2. Dry run of `POST /software-update/update-machines` for them (budget: 2 s).
 * 3. The same update as a rollout with the default plan (1 machine, 10 %, the
 *    rest): time per wave (from the wave's start to its last target final) and
 *    for the whole rollout.
 * 4. While the last wave deploys: p50/p95 of `GET /rollouts/{id}` at 20 clients.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { TBatchResult, TRollout } from '@fleet/contracts';
import { root, startServer, token } from './lib/server.js';
import { runLoad } from './lib/load.js';

const TARGETS = Number(process.env.BENCH_UPDATER_TARGETS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function benchUpdater(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale', env: { SIM_CLOUD_DELAY_MS: '0' } });
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  try {
    const headers = { authorization: `Bearer ${await token(server.baseUrl)}`, 'content-type': 'application/json' };
    // A rollout left running by an earlier, interrupted run would deploy beside this one.
    const left = (await (await fetch(`${server.baseUrl}/api/v1/rollouts?limit=1000`, { headers })).json()) as { items: TRollout[] };
    for (const r of left.items.filter((x) => x.status === 'Running' || x.status === 'Paused')) {
      await fetch(`${server.baseUrl}/api/v1/rollouts/${r.id}/abort`, { method: 'POST', headers: { authorization: headers.authorization } });
    }
    const { rows: machines } = await db.query<{ id: number }>(
      `select m.id from machines m
         join mma_classes c on c.id = m.class_id and not c.is_production
         join mma_instances mi on mi.class_id = m.class_id and not mi.standby
         join cloud_instances i on i.machine_id = m.id and i.active and i.status = 'running'
       where m.deleted_at is null and m.managed and not m.manual_maintenance and not m.needs_admin and not m.terminate
         and m.operation_mode <> 2
         and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
       order by m.id limit $1`,
      [TARGETS],
    );
    const { rows: commits } = await db.query<{ branch: string; shortHash: string }>(
      `select b.name as branch, c.short_hash as "shortHash" from software_commits c join software_branches b on b.id = c.branch_id
       where c.software = 'siteMaster'
         and not exists (select 1 from machines m where m.desired_versions->>'siteMaster' = b.name || '|' || c.short_hash)
       order by c.timestamp desc limit 1`,
    );
    const commit = commits[0];
    if (!commit) throw new Error('no siteMaster commit to roll out');
    const ids = machines.map((m) => m.id);
    console.log(`bench/updater: ${ids.length} machines, siteMaster ${commit.branch}|${commit.shortHash}`);
    const update = { machines: ids, siteMasterVersionMode: 'Select', siteMasterVersion: `${commit.branch}|${commit.shortHash}` };
    const post = async (body: unknown) => {
      const res = await fetch(`${server.baseUrl}/api/v1/software-update/update-machines`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`update-machines ${res.status}: ${(await res.text()).slice(0, 500)}`);
      return (await res.json()) as TBatchResult;
    };

    let started = performance.now();
    const dry = await post({ ...update, dryRun: true });
    console.log(`| dry run, ${ids.length} machines | ${(performance.now() - started).toFixed(0)} ms | ${dry.changed} would change, ${dry.refused} refused |`);

    started = performance.now();
    const { rolloutId } = await post({ ...update, rollout: {} });
    console.log(`| rollout request | ${(performance.now() - started).toFixed(0)} ms | rollout ${rolloutId} |`);
    const read = async () => (await (await fetch(`${server.baseUrl}/api/v1/rollouts/${rolloutId}`, { headers })).json()) as TRollout;
    let rollout = await read();
    let loadMeasured = false;
    while (rollout.status === 'Running') {
      const last = rollout.waves[rollout.waves.length - 1];
      if (!loadMeasured && last?.status === 'Running') {
        loadMeasured = true;
        const r = await runLoad({ url: `${server.baseUrl}/api/v1/rollouts/${rolloutId}`, headers, clients: 20, seconds: SECONDS });
        console.log(`| GET /rollouts/{id} during the last wave, 20 clients | ${r.rps} req/s | p50 ${r.p50} ms | p95 ${r.p95} ms | errors ${r.errors} |`);
      }
      await new Promise((r) => setTimeout(r, 500));
      rollout = await read();
    }
    console.log(`| rollout ${rollout.status}${rollout.reason ? ` (${rollout.reason})` : ''} | ${((performance.now() - started) / 1000).toFixed(1)} s in all |`);
    console.log('| wave | targets | time | succeeded | failed | skipped |');
    console.log('|---|---|---|---|---|---|');
    for (const w of rollout.waves) {
      const took = w.startedAt && w.finishedAt ? `${((Date.parse(w.finishedAt) - Date.parse(w.startedAt)) / 1000).toFixed(1)} s` : '—';
      console.log(`| ${w.index + 1} | ${w.size} | ${took} | ${w.counts.Succeeded} | ${w.counts.Failed} | ${w.counts.Skipped} |`);
    }
    console.log(`server RSS after the run: ${server.rssMiB()} MiB`);
  } finally {
    await db.end();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUpdater();
