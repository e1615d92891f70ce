/**
 * Health-gated waves: the bake (issue 25 point 2; rules in `README.md` Bake).
 * Once every target of a wave is final and the threshold holds, a plan with
 * `bakeMinutes` makes the wave bake before the next one starts; the engine's
 * pass ({@link stepBake}, inside its transaction holding the rollout row) then:
 *
 * - starts the bake once (`rollout_wave_bakes`, primary key per wave);
 * - at each pass, fails a Succeeded target whose machine has an open issue of
 *   source `probe` or `server-status` that occurred during the bake: 'Unhealthy
 *   after deploy: {source}: {description}';
 * - when the bake's time is over, fails a Succeeded target whose machine's
 *   launcher or site master probes succeeded less than
 *   `plan.minProbeSuccessPercent` % of the time during it (from the raw probe
 *   samples of the bake's window), and records the result: Failed when it found
 *   an unhealthy target, else Passed.
 *
 * The wave's threshold then applies to the failures the bake added, as to any.
 */
import type { TRolloutPlan } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { finishBake, selectBakedMachines, selectBakeIssues, selectBakes, selectProbeSuccess, startBake } from './bake.repository.js';
import { setTargetStates, type RolloutRow } from './rollouts.repository.js';

const KIND_LABEL = { launcher: 'launcher', siteMaster: 'site master' } as const;

/** Where a wave's bake stands after a step: none asked by the plan, still baking, or over (passed or failed). */
export type BakeState = 'none' | 'baking' | 'over';

/**
 * One step of the current wave's bake at `now` (see the module docstring); the
 * caller has checked that every target of the wave is final. Answers where the
 * bake stands; targets it finds unhealthy are Failed when it returns.
 */
export async function stepBake(tx: DbOrTx, r: RolloutRow, plan: TRolloutPlan, now: Date): Promise<BakeState> {
  if (plan.bakeMinutes === 0) return 'none';
  const wave = r.currentWave;
  const bake = (await selectBakes(tx, r.id)).get(wave) ?? (await startBake(tx, { rolloutId: r.id, wave, now, minutes: plan.bakeMinutes }));
  if (bake.result) return 'over';

  const machines = await selectBakedMachines(tx, r.id, wave);
  const ids = machines.map((m) => m.machineId);
  const unhealthy = new Map<number, string>();
  const issues = await selectBakeIssues(tx, ids, bake.startedAt);
  for (const m of machines) {
    const issue = issues.get(m.machineId);
    if (issue && !unhealthy.has(m.targetId)) unhealthy.set(m.targetId, `Unhealthy after deploy: ${m.machineName}: ${issue}`);
  }
  const over = now.getTime() >= bake.endsAt.getTime();
  if (over) {
    const names = new Map(machines.map((m) => [m.machineId, m]));
    for (const p of await selectProbeSuccess(tx, ids, bake.startedAt, bake.endsAt)) {
      const m = names.get(p.machineId)!;
      const percent = (100 * p.ok) / p.n;
      if (percent < plan.minProbeSuccessPercent && !unhealthy.has(m.targetId)) {
        unhealthy.set(
          m.targetId,
          `Unhealthy after deploy: ${m.machineName}'s ${KIND_LABEL[p.kind]} probes succeeded ${Math.floor(percent)} % of ${p.n} during the bake ` +
            `(at least ${plan.minProbeSuccessPercent} % needed)`,
        );
      }
    }
  }
  const changes = [...unhealthy].map(([targetId, detail]) => ({ targetId, state: 'Failed' as const, detail }));
  await setTargetStates(tx, r.id, ['Succeeded'], changes);
  const failed = bake.unhealthy + changes.length > 0;
  await finishBake(tx, { rolloutId: r.id, wave, result: over ? (failed ? 'Failed' : 'Passed') : null, unhealthy: changes.length });
  return over ? 'over' : 'baking';
}
