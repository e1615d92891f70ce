/**
 * What an operation does when the agent runs it (DESIGN §12, §13): one effect per
 * operation type, registered in a table the agent reads. The agent (`agent.ts`;
 * invariants in `README.md` beside this file) owns the life around an effect: claim, lease, heartbeat,
 * timeout, SUCCESS or FAILURE, failCounter, events. An effect only does the
 * type's work and writes its output and deployer log lines.
 *
 * Contract of an effect:
 * - **Idempotent, keyed by the operation.** A worker may die mid-effect; the
 *   agent then runs the effect again on a new attempt. An effect must make its
 *   outside work happen once: check for what a previous attempt left (a backup
 *   file named after the operation id, an image whose client token is
 *   `operation-<id>`) before making it again, and {@link OperationEffectContext.checkpoint}
 *   facts a retry could no longer see before the call that hides them. A
 *   database write that must happen once goes through {@link OperationEffectContext.fenced}:
 *   it commits only while the operation's lease is held.
 * - **Failure is a throw.** Throw {@link OperationFailure} with the message the
 *   output should end with; any other error also ends the operation FAILURE
 *   (with its message), except a database that went away (the agent treats
 *   that as a dead worker and leaves the operation for the next one).
 * - **Stop when told.** Check `signal.aborted` between steps (timeout, lost
 *   lease, shutdown) and return or throw promptly.
 */
import type { TOperationTypeName } from '@fleet/contracts';
import type { Db, Tx } from '../../db/client.js';
import type { CloudProvider } from '../cloud/provider.js';
import type { OperationRow } from './operations.repository.js';

/** The machine an effect works on: its row as the agent read it when the operation started. */
export interface EffectMachine {
  id: number;
  name: string;
  accountId: number;
  classId: number;
  isLauncher: boolean;
  isSiteMaster: boolean;
  sampleData: string;
  sampleDataFile: string | null;
  /** The active instance's cloud id, or null. */
  cloudId: string | null;
}

export interface OperationEffectContext {
  db: Db;
  operation: OperationRow;
  machine: EffectMachine;
  /**
   * Appends a line to the operation's output (the agent adds the timestamp).
   * Lines are written at the next `work` step, checkpoint, heartbeat or the
   * finish, whichever comes first, so they are readable while it runs.
   */
  output(line: string): Promise<void>;
  /** Appends a line to the operation's deployer log (the agent adds the timestamp); written as `output`'s. */
  deployerLog(line: string): Promise<void>;
  /** Merges `patch` into the operation's params (and `operation.params`), fenced by the lease (see the contract above). */
  checkpoint(patch: Record<string, unknown>): Promise<void>;
  /**
   * Runs `work` in a transaction that holds the operation's lease (its row
   * locked): it commits only if this attempt still runs the operation, else
   * it throws and the effect stops.
   */
  fenced<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Waits `ms` of simulated work, scaled by SIM_AGENT_DELAY_MS; rejects when `signal` aborts. */
  work(ms: number): Promise<void>;
  signal: AbortSignal;
  cloud: CloudProvider;
}

/** Ends an operation FAILURE with `message` as the last line of its output. */
export class OperationFailure extends Error {}

export type OperationEffect = (ctx: OperationEffectContext) => Promise<void>;

/** The effect of each operation type; a type without an entry runs the agent's generic simulated steps. */
export type OperationEffects = Partial<Record<TOperationTypeName, OperationEffect>>;
