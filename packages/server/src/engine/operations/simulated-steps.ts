/**
 * What the simulated agent writes while it runs an operation type that has no
 * effect of its own (DESIGN §12 Simulation): the step scripts are shared with
 * the reference MMA (`@fleet/contracts/simulated-steps`); `runSteps` plays
 * them through an effect's context, whose `work(ms)` scales the durations by
 * `SIM_AGENT_DELAY_MS` (real ms per nominal second).
 */
import type { SimulatedStep } from '@fleet/contracts/simulated-steps';
import type { OperationEffectContext } from './effects.js';

export { GENERIC_STEPS, type SimulatedStep } from '@fleet/contracts/simulated-steps';

/** Runs steps: each writes its output and log lines, then works its nominal duration. */
export async function runSteps(ctx: OperationEffectContext, steps: SimulatedStep[]): Promise<void> {
  for (const step of steps) {
    await ctx.output(step.output);
    for (const line of step.log) await ctx.deployerLog(line);
    await ctx.work(step.ms);
  }
}
