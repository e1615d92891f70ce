/**
 * bench/updater: the Updater on the scale fleet (issues 13 and 25), simulated
 * agent and cloud delays zero (`SIM_AGENT_DELAY_MS=0`, `SIM_CLOUD_DELAY_MS=0`).
 *
 * 1. Picks `BENCH_UPDATER_TARGETS` (default 10,000) machines that can deploy at
 *    once (`deployableMachines`) and, for each rollout, a siteMaster commit
 *    none of them is meant to run.
 * 2. Dry run of `POST /software-update/update-machines` for them (budget: 2 s).
 * 3. The same update as a rollout with the default plan (1 machine, 10 %, the
 *    rest): time per wave (from the wave's start to its last target final) and
 *    for the whole rollout; while the last wave deploys, p50/p95 of
 *    `GET /rollouts/{id}` at 20 clients.
 * 4. Issue 25: the same machines, default waves, `maxConcurrent` 500 and a
 *    1-minute bake: per wave its releases (RolloutWave activities), the deploy
 *    (start to last target final), the bake (its window and result), the wait
 *    from the bake's end to the next wave's start (or the completion), and the
 *    wave in all; the whole rollout.
 * 5. Issue 25: the threshold. The server is started again with
 *    `SIM_AGENT_FAIL_MACHINES` naming the machines at 25 % and 60 % of the
 *    selection (`ANOMALY_FAILURES` out of reach, so that their retries do not
 *    put a class on standby), and the same machines roll out in one wave with
 *    `maxConcurrent` 500 and the default threshold (it halts at the 2nd
 *    failure). Counted in the database (`releasedAfterThreshold`), budget none
 *    each: the targets released after the target that exceeded the threshold
 *    became Failed; those released in that same transaction (the engine
 *    evaluates the targets in flight before it releases more); and the
 *    UpdateSoftware the rollout caused that were queued after the halt and not
 *    cancelled (the README's "nothing deploys after a rollout gave up": no
 *    retry either).
 *
 * A small run (`BENCH_UPDATER_TARGETS=500`) takes about five minutes; its waves
 * are smaller than the cap, so every wave is one release and step 5 cannot
 * release anything late.
 */
import type { TRollout, TRolloutPlanInput } from '@fleet/contracts';
import { startServer } from './lib/server.js';
import { runLoad } from './lib/load.js';
import {
  abortLeftRollouts,
  connectBench,
  deployableMachines,
  followRollout,
  releasedAfterThreshold,
  releasesPerWave,
  seconds,
  unusedSiteMasterCommit,
  updateSiteMaster,
  type Bench,
} from './lib/rollouts.js';
import { thresholdExceeded } from '../packages/server/src/engine/rollouts/waves.js';

const TARGETS = Number(process.env.BENCH_UPDATER_TARGETS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CAPPED_PLAN = { maxConcurrent: { kind: 'count', value: 500 }, bakeMinutes: 1 } satisfies TRolloutPlanInput;
const THRESHOLD_PLAN = { waves: [{ kind: 'percent', value: 100 }], maxConcurrent: { kind: 'count', value: 500 } } satisfies TRolloutPlanInput;
/** Where in the selection the machines that fail every operation are (step 5). */
const FAILING_AT = [0.25, 0.6];

/** Step 2 and 3. */
async function defaultRollout(b: Bench, ids: number[]): Promise<void> {
  const ref = await unusedSiteMasterCommit(b.db);
  console.log(`bench/updater: ${ids.length} machines, siteMaster ${ref}`);
  let started = performance.now();
  const dry = await updateSiteMaster(b, { machines: ids, ref, dryRun: true });
  console.log(`| dry run, ${ids.length} machines | ${(performance.now() - started).toFixed(0)} ms | ${dry.changed} would change, ${dry.refused} refused |`);

  started = performance.now();
  const { rolloutId } = await updateSiteMaster(b, { machines: ids, ref, plan: {} });
  console.log(`| rollout request | ${(performance.now() - started).toFixed(0)} ms | rollout ${rolloutId} |`);
  let loadMeasured = false;
  const rollout = await followRollout(b, rolloutId!, {
    onPoll: async (r) => {
      if (loadMeasured || r.waves[r.waves.length - 1]?.status !== 'Running') return;
      loadMeasured = true;
      const l = await runLoad({ url: `${b.baseUrl}/api/v1/rollouts/${rolloutId}`, headers: b.headers, clients: 20, seconds: SECONDS });
      console.log(`| GET /rollouts/{id} during the last wave, 20 clients | ${l.rps} req/s | p50 ${l.p50} ms | p95 ${l.p95} ms | errors ${l.errors} |`);
    },
  });
  console.log(`| rollout ${rollout.status}${rollout.reason ? ` (${rollout.reason})` : ''} | ${((performance.now() - started) / 1000).toFixed(1)} s in all |`);
  console.log('| wave | targets | time | succeeded | failed | skipped |');
  console.log('|---|---|---|---|---|---|');
  for (const w of rollout.waves) {
    console.log(`| ${w.index + 1} | ${w.size} | ${seconds(w.startedAt, w.finishedAt)} | ${w.counts.Succeeded} | ${w.counts.Failed} | ${w.counts.Skipped} |`);
  }
}

/** Step 4. */
async function cappedBakedRollout(b: Bench, ids: number[]): Promise<void> {
  const ref = await unusedSiteMasterCommit(b.db);
  console.log(`\nbench/updater: maxConcurrent 500, bake 1 minute, default waves; ${ids.length} machines, siteMaster ${ref}`);
  const started = performance.now();
  const { rolloutId } = await updateSiteMaster(b, { machines: ids, ref, plan: CAPPED_PLAN });
  const rollout = await followRollout(b, rolloutId!);
  const took = (performance.now() - started) / 1000;
  const releases = await releasesPerWave(b.db, rolloutId!);
  console.log(
    `| rollout ${rolloutId} ${rollout.status}${rollout.reason ? ` (${rollout.reason})` : ''} | ${took.toFixed(1)} s from the request to Completed seen ` +
      `| ${seconds(rollout.createdAt, rollout.updatedAt)} from its start to its end (server's times) |`,
  );
  console.log('| wave | targets | releases | deploy: start → last target final | last final → bake start | bake (window, result) | bake end → next wave / end | wave in all | succeeded | failed | skipped |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const w of rollout.waves) {
    // The wave ends when the next one starts (or the rollout completes after the last).
    const next = rollout.waves[w.index + 1]?.startedAt ?? (rollout.status === 'Completed' ? rollout.updatedAt : null);
    const bake = w.bake ? `${seconds(w.bake.startedAt, w.bake.endsAt)}, ${w.bake.result ?? 'baking'}` : '—';
    console.log(
      `| ${w.index + 1} | ${w.size} | ${releases.get(w.index) ?? 0} | ${seconds(w.startedAt, w.finishedAt)} | ${seconds(w.finishedAt, w.bake?.startedAt)} ` +
        `| ${bake} | ${seconds(w.bake?.endsAt, next)} | ${seconds(w.startedAt, next)} | ${w.counts.Succeeded} | ${w.counts.Failed} | ${w.counts.Skipped} |`,
    );
  }
}

/** Step 5, on a server started with the failing machines. */
async function thresholdRollout(b: Bench, ids: number[], failing: string[]): Promise<void> {
  const ref = await unusedSiteMasterCommit(b.db);
  console.log(`\nbench/updater: threshold, one wave, maxConcurrent 500; ${ids.length} machines, failing ${failing.join(', ')}; siteMaster ${ref}`);
  const { rolloutId } = await updateSiteMaster(b, { machines: ids, ref, plan: THRESHOLD_PLAN });
  const rollout: TRollout = await followRollout(b, rolloutId!, { settleMs: 180_000 });
  const wave = rollout.waves[0]!;
  // The failure that exceeds the threshold: the first count that passes it.
  let nth = 1;
  while (!thresholdExceeded(nth, wave.size, rollout.plan)) nth += 1;
  const after = await releasedAfterThreshold(b.db, { rolloutId: rolloutId!, wave: 0, nth });
  const releases = (await releasesPerWave(b.db, rolloutId!)).get(0) ?? 0;
  const c = wave.counts;
  console.log(`| rollout ${rolloutId} ${rollout.status} | ${rollout.reason ?? ''} |`);
  console.log(
    `| wave 1: ${wave.size} targets, ${releases} releases | succeeded ${c.Succeeded}, failed ${c.Failed}, skipped ${c.Skipped}, not applied ${c.NotApplied}, ` +
      `still deploying ${c.Deploying + c.AwaitingApproval} |`,
  );
  if (!after.crossing) {
    console.log(`| the threshold (failure ${nth}) was not exceeded: nothing to count |`);
    return;
  }
  const states = Object.entries(after.statesOfThose).map(([s, n]) => `${s} ${n}`).join(', ') || '—';
  console.log(
    `| threshold exceeded by failure ${nth}: ${after.crossing.name}, Failed at ${after.crossing.failedAt} (its UpdateSoftware ended FAILURE at ` +
      `${after.crossing.operationFinishedAt ?? '—'}); halted at ${after.haltedAt ?? '—'} |`,
  );
  const verdict = (n: number) => (n === 0 ? 'PASS' : 'FAIL');
  // engine/rollouts/README.md: "Nothing deploys after a rollout gave up".
  const queued = Object.values(after.queuedAfterHalt).reduce((a, n) => a + n, 0);
  const byStatus = Object.entries(after.queuedAfterHalt).map(([s, n]) => `${s} ${n}`).join(', ');
  console.log('| measure | count | budget | |');
  console.log('|---|---|---|---|');
  console.log(`| targets released after the threshold was exceeded (RolloutWave later than that target's Failed) | ${after.releasedAfter} | none | ${verdict(after.releasedAfter)} |`);
  console.log(`| targets released in the transaction that made it Failed and halted | ${after.releasedWith} | none | ${verdict(after.releasedWith)} |`);
  console.log(`| final states of the targets released in or after that transaction | ${states} | | |`);
  console.log(
    `| UpdateSoftware caused by the rollout, queued after the halt and not cancelled | ${queued}${queued > 0 ? ` on ${after.machinesQueuedAfterHalt} machines (${byStatus})` : ''} ` +
      `| none | ${verdict(queued)} |`,
  );
}

export async function benchUpdater(): Promise<void> {
  let selected: { id: number; name: string }[];
  const server = await startServer({ name: 'scale', seed: 'scale' });
  const b = await connectBench(server);
  try {
    await abortLeftRollouts(b);
    selected = await deployableMachines(b.db, TARGETS);
    const ids = selected.map((m) => m.id);
    await defaultRollout(b, ids);
    await cappedBakedRollout(b, ids);
    console.log(`server RSS after the runs: ${server.rssMiB()} MiB`);
  } finally {
    await b.close();
    await server.stop();
  }

  const failing = FAILING_AT.map((f) => selected[Math.floor(selected.length * f)]!.name);
  const failServer = await startServer({
    name: 'scale',
    seed: 'scale',
    env: { SIM_AGENT_FAIL_MACHINES: failing.join(','), ANOMALY_FAILURES: '1000000' },
  });
  const fb = await connectBench(failServer);
  try {
    await abortLeftRollouts(fb);
    await thresholdRollout(
      fb,
      selected.map((m) => m.id),
      failing,
    );
  } finally {
    await fb.close();
    await failServer.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUpdater();
