/**
 * What runs an operation on the MMA's host (README "Executors"): a function of
 * the claimed operation that writes output and deployer log lines as it goes
 * and resolves with SUCCESS or FAILURE once its work has stopped (no process
 * of it left running).
 */
import type { TMmaClaimedOperation } from '@fleet/contracts';
import type { RunFiles } from '../backup-files.js';

export interface ExecutorContext {
  operation: TMmaClaimedOperation;
  /**
   * Aborted when the run must stop (a cancel, a lost lease, the MMA's
   * shutdown): the executor stops its work and resolves (its result is then
   * the run's to word: "Cancelled by admin").
   */
  signal: AbortSignal;
  /** Longest run, ms (the shorter of the claim's `remainingMs` and the executor's `timeoutSeconds`): past it, stop and fail. */
  timeoutMs: number;
  /** One line of the operation's output (without its time: the log stream stamps it). */
  output(line: string): void;
  /** One line of the operation's deployer log. */
  deployerLog(line: string): void;
  /** A Backup's or RestoreBackup's folder and its `FLEET_BACKUP_*` / `FLEET_RESTORE_*` variables (`../backup-files.ts`). */
  files?: RunFiles;
}

/** How the work ended; a FAILURE's `message` becomes the output's last line. */
export interface ExecutorResult {
  status: 'SUCCESS' | 'FAILURE';
  message?: string;
}

export type Executor = (ctx: ExecutorContext) => Promise<ExecutorResult>;

/** The FAILURE message of a run that ran out of time. */
export const timedOutMessage = (ms: number) => `Timed out after ${Number((ms / 1000).toFixed(1))} s`;

/** The FAILURE message of a run stopped by its signal (replaced by the run's own reason). */
export const STOPPED_MESSAGE = 'Stopped';
