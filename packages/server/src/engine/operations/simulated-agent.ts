/**
 * The simulated machine agent (DESIGN §12 Simulation), the default
 * {@link MachineAgent}: it runs the effect of the operation's type from its
 * effects table, or the type's generic steps (`simulated-steps.ts`) when the
 * table has none, writing output and deployer log lines as a real deployer
 * would.
 *
 * Fault injection for tests, like the simulated cloud's: `failNext` fails the
 * next `times` operations of a type, of a machine, or of both, with a message;
 * the operation writes its first steps, then the error, and ends FAILURE (its
 * effect is not run). Faults live in this object's memory, so they reach the
 * runner that was handed the same object.
 */
import type { TOperationTypeName } from '@fleet/contracts';
import type { MachineAgent } from './agent.js';
import { OperationFailure, type OperationEffects } from './effects.js';
import { GENERIC_STEPS, runSteps } from './simulated-steps.js';

/** Which operations a fault fails: of a type, of a machine (by id or name), or of both. */
export interface AgentFault {
  typeName?: TOperationTypeName;
  machineId?: number;
  machineName?: string;
  /** How many operations it fails (default 1; `Infinity` for every one). */
  times?: number;
  /** The output's last line (default `Simulated failure of <type>`). */
  message?: string;
}

export interface SimulatedAgent extends MachineAgent {
  /** Fails the next matching operations (see {@link AgentFault}). Rules are tried in the order they were added. */
  failNext(fault: AgentFault): void;
  clearFaults(): void;
}

/**
 * `faults` are in place from the start: `SIM_AGENT_FAIL_MACHINES` (main.ts)
 * fails every operation of the machines it names, so that a test of another
 * process (the e2e suite) can make a machine fail.
 */
export function createSimulatedAgent({ effects, faults: initial = [] }: { effects: OperationEffects; faults?: AgentFault[] }): SimulatedAgent {
  const faults: (AgentFault & { remaining: number })[] = initial.map((f) => ({ ...f, remaining: f.times ?? 1 }));

  function takeFault(typeName: TOperationTypeName, machine: { id: number; name: string }): string | undefined {
    const i = faults.findIndex(
      (f) =>
        (f.typeName === undefined || f.typeName === typeName) &&
        (f.machineId === undefined || f.machineId === machine.id) &&
        (f.machineName === undefined || f.machineName === machine.name),
    );
    if (i < 0) return undefined;
    const fault = faults[i]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(i, 1);
    return fault.message ?? `Simulated failure of ${typeName}`;
  }

  return {
    name: 'simulated',
    failNext(fault) {
      faults.push({ ...fault, remaining: fault.times ?? 1 });
    },
    clearFaults() {
      faults.length = 0;
    },
    async run(ctx) {
      const typeName = ctx.operation.typeName as TOperationTypeName;
      const steps = GENERIC_STEPS[typeName]?.(ctx.machine, ctx.operation.params) ?? [];
      const fault = takeFault(typeName, ctx.machine);
      if (fault !== undefined) {
        await runSteps(ctx, steps.slice(0, Math.max(1, Math.floor(steps.length / 2))));
        await ctx.deployerLog(`ERROR ${fault}`);
        throw new OperationFailure(fault);
      }
      const effect = effects[typeName];
      if (effect) await effect(ctx);
      else if (steps.length > 0) await runSteps(ctx, steps);
      else throw new OperationFailure(`The agent does not know operation type ${typeName}`);
    },
  };
}
