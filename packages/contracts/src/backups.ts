/**
 * Backup files, sample data files and version states (spec 2 §2.3 Restore Backup,
 * Reinstall Sample Data, Version Info; §2.8 States viewer; §3 Version state,
 * Backup file; §7; DESIGN §13, §14).
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, ZId, ZPageQuery, ZQueryFlag, zPaged } from './common.js';
import { CONFIG_COMPONENTS } from './account-sections.js';

// ---------------------------------------------------------------- backup files

/** The software a backup file is of: the launcher's database, a site master's, its audit changelog's. */
export const BACKUP_SOFTWARE = ['launcher', 'siteMaster', 'auditChangeLog'] as const;
export const ZBackupSoftware = z.enum(BACKUP_SOFTWARE);
export type TBackupSoftware = z.infer<typeof ZBackupSoftware>;

/** The software a machine runs, in backup order (DESIGN §13): the launcher on a launcher machine; siteMaster and auditChangeLog on a site master. */
export function backupSoftwareOf(machine: { isLauncher: boolean; isSiteMaster: boolean }): TBackupSoftware[] {
  return [...(machine.isLauncher ? (['launcher'] as const) : []), ...(machine.isSiteMaster ? (['siteMaster', 'auditChangeLog'] as const) : [])];
}

/** The params of a RestoreBackup naming its chosen file of each software (spec 2 §2.3 Restore Backup). */
export const RESTORE_BACKUP_PARAMS: Record<TBackupSoftware, string> = {
  launcher: 'launcherBackupFile',
  siteMaster: 'siteMasterBackupFile',
  auditChangeLog: 'auditChangeLogBackupFile',
};

/** Why a backup was made (DESIGN §13): a forced backup is manual, the schedules make the others. */
export const BACKUP_CATEGORIES = ['manual', 'daily', 'weekly', 'monthly'] as const;
export const ZBackupCategory = z.enum(BACKUP_CATEGORIES);

/** Storage classes of an object (DESIGN §13): retention may move old backups to Glacier. */
export const STORAGE_CLASSES = ['Standard', 'Glacier'] as const;
export const ZStorageClass = z.enum(STORAGE_CLASSES);

/** A backup file (spec 2 §3 Backup file; DESIGN §13). `size` in bytes; `name` is unique and is what Restore Backup sends. */
export const ZBackupFile = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  machineId: z.number().int(),
  softwareName: ZBackupSoftware,
  name: z.string(),
  createdAt: z.string(),
  category: ZBackupCategory,
  size: z.number().int(),
  storageClass: ZStorageClass,
});
export type TBackupFile = z.infer<typeof ZBackupFile>;

/** `GET /accounts/{id}/backups`: the account's backup files, newest first; optionally of one software or machine. */
export const ZAccountBackupsQuery = ZPageQuery.extend({
  softwareName: ZBackupSoftware.optional(),
  machineId: ZId.optional(),
});
export const ZBackupFilesResponse = zPaged(ZBackupFile);
export type TBackupFilesResponse = z.infer<typeof ZBackupFilesResponse>;

// ---------------------------------------------------------------- sample data files

/** A sample data file (Reinstall Sample Data's Select choice; Publish as Sample Data makes one). `size` in bytes. */
export const ZSampleDataFile = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  size: z.number().int(),
  /** The machine it was published from, or null for the seeded defaults. */
  sourceMachineId: z.number().int().nullable(),
  publishedBy: z.string(),
});
export type TSampleDataFile = z.infer<typeof ZSampleDataFile>;
/** `GET /sample-data-files`: every sample data file, by name. */
export const ZSampleDataFilesResponse = z.array(ZSampleDataFile);

// ---------------------------------------------------------------- version states

/** Components of a version state (spec 2 §3 Version state): the machineConfig components. */
export const VERSION_STATE_COMPONENTS = CONFIG_COMPONENTS;

/** One component's version in a state: a commit of a branch, or null when not installed. */
export const ZComponentVersion = z.object({
  branchName: z.string(),
  shortHash: z.string(),
  /** The commit's time, ISO 8601 UTC. */
  timestamp: z.string(),
});
export type TComponentVersion = z.infer<typeof ZComponentVersion>;

/**
 * A version state of a machine (spec 2 §3): the desired one (what the account's
 * machineConfig resolves to, DESIGN §12), the current one (what its last
 * successful UpdateSoftware installed) or a historical one (a former current).
 */
export const ZVersionState = z.object({
  /**
   * Null for a state that is computed, not stored: the desired state, and the
   * current versions of a machine that has no stored state yet (`state-info`).
   */
  id: z.number().int().nullable(),
  machine: z.object({ id: z.number().int(), name: z.string() }),
  desired: z.boolean(),
  current: z.boolean(),
  timestamp: z.string(),
  /** Every component of {@link VERSION_STATE_COMPONENTS}: its commit, or null when not installed. */
  components: z.record(z.string(), ZComponentVersion.nullable()),
  /** The operation that wrote it (UpdateSoftware, TestLatestCode), or null (seeded, computed). */
  operationId: z.number().int().nullable(),
});
export type TVersionState = z.infer<typeof ZVersionState>;

/**
 * `GET /machines/{id}/states`: the machine's stored states, newest first;
 * `current=true` only the current one, `current=false` only historical ones;
 * `desired=true` answers the desired state as the only item (`current` is then
 * ignored). Newest first: timestamp, then id, descending.
 */
export const ZVersionStatesQuery = z.object({
  ...PAGE_QUERY_FIELDS,
  desired: ZQueryFlag.optional(),
  current: ZQueryFlag.optional(),
});
export const ZVersionStatesResponse = zPaged(ZVersionState);
export type TVersionStatesResponse = z.infer<typeof ZVersionStatesResponse>;
