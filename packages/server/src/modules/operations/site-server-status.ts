/**
 * The simulated site server status (spec 2 §2.3 Server Status, §3; DESIGN §14):
 * what the agent would read from the machine's services, derived from the
 * machine's state so that it is consistent with what the console shows and the
 * same on every call (tests rely on it):
 *
 * - no active cloud instance, or one that is not `running` (stopped, pending,
 *   stopping, terminated): status `Stopped`, every flag false (nothing answers);
 * - needsAdmin (Panic): status `Degraded`, operational false, and one check
 *   false: the one at `machineId mod 5` of diskSpaceOk, interServerCommOk,
 *   libraryImportOk, mongoOk, rabbitMqOk;
 * - its last finished operation failed: status `Degraded`, operational true, the
 *   same one check false;
 * - otherwise status `Running`, every flag true.
 *
 * A machine of a remote class (issue 27) is not simulated: with a running
 * instance it answers what its MMA last reported (`machine_reports`,
 * `POST /mma-agent/machines/{id}/report`), or `Not reported` with every flag
 * false until one reports.
 *
 * A false flag on a running managed machine is raised as a `server-status`
 * issue by the worker's periodic check (`engine/issues/server-status-check.ts`),
 * which reads the same facts and calls this function.
 *
 */
import type { TSiteServerStatus } from '@fleet/contracts';

export interface SiteServerFacts {
  machineId: number;
  needsAdmin: boolean;
  /** The active instance's status, or null when the machine has none. */
  instanceStatus: string | null;
  /** The status of the machine's latest finished operation, or null. */
  lastFinishedStatus: string | null;
  /** Its class runs its operations on remote MMAs; then `reported` is its MMA's last report, or null. */
  remote?: boolean;
  reported?: TSiteServerStatus | null;
}

/** The checks of a site server, in the order `machineId mod 5` picks the failing one from. */
export const SITE_SERVER_CHECKS = ['diskSpaceOk', 'interServerCommOk', 'libraryImportOk', 'mongoOk', 'rabbitMqOk'] as const;

export function siteServerStatus(f: SiteServerFacts): TSiteServerStatus {
  const all = (ok: boolean) => Object.fromEntries(SITE_SERVER_CHECKS.map((c) => [c, ok])) as Record<(typeof SITE_SERVER_CHECKS)[number], boolean>;
  if (f.instanceStatus !== 'running') return { status: 'Stopped', operational: false, ...all(false) };
  if (f.remote) return f.reported ?? { status: 'Not reported', operational: false, ...all(false) };
  const failing = f.needsAdmin || f.lastFinishedStatus === 'FAILURE';
  if (!failing) return { status: 'Running', operational: true, ...all(true) };
  const checks = all(true);
  checks[SITE_SERVER_CHECKS[f.machineId % SITE_SERVER_CHECKS.length]!] = false;
  return { status: 'Degraded', operational: !f.needsAdmin, ...checks };
}
