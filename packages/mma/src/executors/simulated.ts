/**
 * The simulated executor (README "Simulated executor"): plays the simulated
 * deployer's steps of the operation's type (`@fleet/contracts/simulated-steps`,
 * the server's simulated agent's own scripts): each step writes its output
 * line and its deployer log lines, then waits its nominal duration scaled by
 * `delayMs` (real ms per nominal second: the environment's
 * `SIM_AGENT_DELAY_MS`, else the executor's `delayMs`, else 200), so a
 * default UpdateSoftware takes some 15 s.
 *
 * A machine named in `failMachines` plays the first half of its steps, then
 * fails "Simulated failure" (as the server's agent's injected faults do).
 * Past `ctx.timeoutMs` it fails "Timed out after N s"; an aborted signal stops
 * the wait at once. A Backup that succeeds writes a small gzip'd dump per
 * software into its folder, and a PublishSampleData its zip, as a script
 * would.
 */
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { GENERIC_STEPS } from '@fleet/contracts/simulated-steps';
import type { SimulatedExecutorConfig } from '../config.js';
import { STOPPED_MESSAGE, timedOutMessage, type Executor } from './types.js';
import { backupFilePath, sampleDataPath } from '../backup-files.js';

/** Real ms per nominal second when neither SIM_AGENT_DELAY_MS nor `delayMs` says. */
export const SIMULATED_DELAY_MS_DEFAULT = 200;
export const SIMULATED_FAILURE = 'Simulated failure';

/** The delay in force: SIM_AGENT_DELAY_MS (a number ≥ 0), else `delayMs`, else the default. Throws on a SIM_AGENT_DELAY_MS that is not a number. */
export function simulatedDelayMs(config: SimulatedExecutorConfig, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.SIM_AGENT_DELAY_MS;
  if (fromEnv !== undefined && fromEnv !== '') {
    const n = Number(fromEnv);
    if (!Number.isFinite(n) || n < 0) throw new Error(`SIM_AGENT_DELAY_MS must be a number of milliseconds ≥ 0, not '${fromEnv}'`);
    return n;
  }
  return config.delayMs ?? SIMULATED_DELAY_MS_DEFAULT;
}

export function createSimulatedExecutor({ config, env = process.env }: { config: SimulatedExecutorConfig; env?: NodeJS.ProcessEnv }): Executor {
  const delayMs = simulatedDelayMs(config, env);
  const failing = new Set(config.failMachines ?? []);
  return async (ctx) => {
    const { operation: op } = ctx;
    const all = GENERIC_STEPS[op.typeName](op.machine, op.params);
    const fails = failing.has(op.machine.name);
    const steps = fails ? all.slice(0, Math.max(1, Math.floor(all.length / 2))) : all;
    const deadline = Date.now() + ctx.timeoutMs;
    for (const step of steps) {
      if (ctx.signal.aborted) return { status: 'FAILURE', message: STOPPED_MESSAGE };
      ctx.output(step.output);
      for (const line of step.log) ctx.deployerLog(line);
      const wait = (step.ms * delayMs) / 1000;
      const left = deadline - Date.now();
      if (wait > left) {
        await sleep(Math.max(0, left), undefined, { signal: ctx.signal }).catch(() => undefined);
        return { status: 'FAILURE', message: ctx.signal.aborted ? STOPPED_MESSAGE : timedOutMessage(ctx.timeoutMs) };
      }
      if (wait > 0) await sleep(wait, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    if (ctx.signal.aborted) return { status: 'FAILURE', message: STOPPED_MESSAGE };
    if (fails) {
      ctx.deployerLog(`ERROR ${SIMULATED_FAILURE}`);
      return { status: 'FAILURE', message: SIMULATED_FAILURE };
    }
    // A Backup's dumps, as a script would write them (the run uploads them).
    if (op.typeName === 'Backup' && ctx.files) {
      for (const software of ctx.files.software) {
        const dump = `-- simulated ${software} dump of ${op.machine.name}, operation ${op.operationId}\n`;
        await writeFile(backupFilePath(ctx.files.dir, software), gzipSync(Buffer.from(dump)));
      }
    }
    if (op.typeName === 'PublishSampleData' && ctx.files) {
      await writeFile(sampleDataPath(ctx.files.dir), Buffer.from(`PK simulated sample data of ${op.machine.name}, operation ${op.operationId}\n`));
    }
    return { status: 'SUCCESS' };
  };
}
