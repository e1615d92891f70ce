/**
 * Rules of the operation dialogs and viewers that need no React (spec 2 §2.3,
 * §2.6, §5, §9): the alt string filter, the latest backup per software and the
 * Restore Backup request, the texts of operation statuses and modes, and
 * durations.
 */
import {
  BACKUP_SOFTWARE,
  OPERATION_MODES,
  type TBackupFile,
  type TBackupSoftware,
  type TOperation,
  type TRestoreBackupRequest,
} from '@fleet/contracts';
import { isBeingCancelled, isOperationFinished, isPendingOperation } from '../machines/machine-status';

/** Longest alt string the server takes (ZForcePopulateRequest). */
export const ALT_STRING_MAX = 100;

/** Force Populate's alt string as typed, keeping only letters and digits (spec 2 §5), at most 100. */
export function cleanAltString(raw: string): string {
  return raw.replace(/[^A-Za-z0-9]/g, '').slice(0, ALT_STRING_MAX);
}

/** The latest backup of each software, by `createdAt` (then id); a software without one is absent. */
export type LatestBackups = Partial<Record<TBackupSoftware, TBackupFile>>;

export function latestBackups(files: readonly TBackupFile[]): LatestBackups {
  const latest: LatestBackups = {};
  for (const file of files) {
    const current = latest[file.softwareName];
    const newer = !current || file.createdAt > current.createdAt || (file.createdAt === current.createdAt && file.id > current.id);
    if (newer) latest[file.softwareName] = file;
  }
  return latest;
}

/** Whether the account has no backup at all ('This account has no backup. …'). */
export const hasNoBackup = (latest: LatestBackups) => BACKUP_SOFTWARE.every((s) => latest[s] === undefined);

/**
 * The Restore Backup request for the chosen software (spec 2 §2.3, §5): the
 * latest file of each chosen software that has one, null for the others;
 * undefined when nothing usable is chosen (at least one backup is needed).
 */
export function restoreRequest(latest: LatestBackups, chosen: ReadonlySet<TBackupSoftware>): TRestoreBackupRequest | undefined {
  const name = (software: TBackupSoftware) => (chosen.has(software) ? (latest[software]?.name ?? null) : null);
  const request = {
    launcherBackupFile: name('launcher'),
    siteMasterBackupFile: name('siteMaster'),
    auditChangeLogBackupFile: name('auditChangeLog'),
  };
  return Object.values(request).some((v) => v !== null) ? request : undefined;
}

/** The status text of an operation in the viewers: CANCELLING while being cancelled (also a running one), else its status, or what it waits for while it has none. */
export function operationStatusText(op: TOperation): string {
  if (isBeingCancelled(op)) return 'CANCELLING';
  if (op.status) return op.status;
  if (isPendingOperation(op)) return 'PENDING';
  return isOperationFinished(op) ? 'FINISHED' : 'QUEUED';
}

/** Operation mode names of the viewers (spec 2 §2.6, §9): 0 NORMAL, 1 STABLE, 2 ANOMALY; another value as its number. */
export const operationModeName = (mode: number) => OPERATION_MODES[mode] ?? String(mode);

/** A duration in seconds as `1h 2m 3s`, `2m 3s` or `3s`; empty for null. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** A log's text as the log dialog shows it: 'None' when empty (spec 2 §2.6). */
export const logText = (content: string | undefined) => (content && content.trim() !== '' ? content : 'None');
