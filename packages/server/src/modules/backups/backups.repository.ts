/**
 * SQL of backup files and sample data files (DESIGN §13): the metadata rows of
 * objects in the object store (`storage/`). Read by the API (account backups,
 * a machine's own backups, the sample data files) and written by the storage
 * effects and the seed.
 */
import { and, asc, count, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { MACHINE_DETAIL_BACKUPS, type TBackupFile, type TBackupSoftware, type TSampleDataFile } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, backupFiles, machines, sampleDataFiles } from '../../db/schema.js';

export type BackupFileRow = typeof backupFiles.$inferSelect;
export type NewBackupFile = typeof backupFiles.$inferInsert;
export type SampleDataFileRow = typeof sampleDataFiles.$inferSelect;
export type NewSampleDataFile = typeof sampleDataFiles.$inferInsert;

/** A backup file as the API answers it (ZBackupFile). */
export function toBackupFile(row: BackupFileRow): TBackupFile {
  return {
    id: row.id,
    accountId: row.accountId,
    machineId: row.machineId,
    softwareName: row.softwareName as TBackupSoftware,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    category: row.category as TBackupFile['category'],
    size: row.size,
    storageClass: row.storageClass as TBackupFile['storageClass'],
  };
}

/** Rows of machines the principal may see: neither the machine's class nor its account's is hidden. */
function visibleMachine(hiddenClassIds: number[]): SQL | undefined {
  if (hiddenClassIds.length === 0) return undefined;
  return and(notInArray(machines.classId, hiddenClassIds), notInArray(accounts.classId, hiddenClassIds));
}

/**
 * The backup files of an account, newest first (createdAt, then id), optionally
 * of one software or machine, paged; files of machines the principal may not see
 * are left out. The caller checks that the account itself is visible.
 */
export async function selectAccountBackups(
  db: DbOrTx,
  q: { accountId: number; softwareName?: TBackupSoftware; machineId?: number; hiddenClassIds: number[]; startIndex: number; limit: number },
): Promise<{ items: TBackupFile[]; totalItems: number }> {
  const where = and(
    eq(backupFiles.accountId, q.accountId),
    q.softwareName ? eq(backupFiles.softwareName, q.softwareName) : undefined,
    q.machineId !== undefined ? eq(backupFiles.machineId, q.machineId) : undefined,
    visibleMachine(q.hiddenClassIds),
  );
  const [page, [total]] = await Promise.all([
    db
      .select({ row: backupFiles })
      .from(backupFiles)
      .innerJoin(machines, eq(machines.id, backupFiles.machineId))
      .innerJoin(accounts, eq(accounts.id, machines.accountId))
      .where(where)
      .orderBy(desc(backupFiles.createdAt), desc(backupFiles.id))
      .offset(q.startIndex)
      .limit(q.limit),
    db
      .select({ total: count() })
      .from(backupFiles)
      .innerJoin(machines, eq(machines.id, backupFiles.machineId))
      .innerJoin(accounts, eq(accounts.id, machines.accountId))
      .where(where),
  ]);
  return { items: page.map((p) => toBackupFile(p.row)), totalItems: total?.total ?? 0 };
}

/**
 * A machine's own backup files per software, each newest first, at most
 * {@link MACHINE_DETAIL_BACKUPS} each (the machine detail's cloudBackups* fields).
 */
export async function selectMachineBackups(
  db: DbOrTx,
  machineId: number,
): Promise<{ cloudBackupsLauncher: TBackupFile[]; cloudBackupsSiteMaster: TBackupFile[]; cloudBackupsAuditChangeLog: TBackupFile[] }> {
  const ranked = db
    .select({
      id: backupFiles.id,
      rank: sql<number>`row_number() over (partition by ${backupFiles.softwareName} order by ${backupFiles.createdAt} desc, ${backupFiles.id} desc)`.as('rank'),
    })
    .from(backupFiles)
    .where(eq(backupFiles.machineId, machineId))
    .as('ranked');
  const rows = await db
    .select({ row: backupFiles })
    .from(backupFiles)
    .innerJoin(ranked, eq(ranked.id, backupFiles.id))
    .where(sql`${ranked.rank} <= ${MACHINE_DETAIL_BACKUPS}`)
    .orderBy(desc(backupFiles.createdAt), desc(backupFiles.id));
  const of = (software: TBackupSoftware) => rows.filter((r) => r.row.softwareName === software).map((r) => toBackupFile(r.row));
  return { cloudBackupsLauncher: of('launcher'), cloudBackupsSiteMaster: of('siteMaster'), cloudBackupsAuditChangeLog: of('auditChangeLog') };
}

/** Backup files by name (any account); unknown names are left out. */
export async function findBackupFilesByNames(db: DbOrTx, names: string[]): Promise<BackupFileRow[]> {
  if (names.length === 0) return [];
  return db.select().from(backupFiles).where(inArray(backupFiles.name, names));
}

/** The backup files an operation made, by software. */
export async function findBackupFilesOfOperation(db: DbOrTx, operationId: number): Promise<BackupFileRow[]> {
  return db.select().from(backupFiles).where(eq(backupFiles.operationId, operationId)).orderBy(asc(backupFiles.id));
}

/**
 * Inserts a backup file's row unless its operation already has one for that
 * software (a retry): answers the row inserted, or the one that was there.
 */
export async function insertBackupFile(db: DbOrTx, row: NewBackupFile): Promise<BackupFileRow> {
  const [inserted] = await db.insert(backupFiles).values(row).onConflictDoNothing({ target: [backupFiles.operationId, backupFiles.softwareName] }).returning();
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(backupFiles)
    .where(and(eq(backupFiles.operationId, row.operationId!), eq(backupFiles.softwareName, row.softwareName)));
  return existing!;
}

/** Inserts backup file rows without an operation (the seed). */
export async function insertSeedBackupFiles(db: DbOrTx, rows: NewBackupFile[]): Promise<void> {
  if (rows.length > 0) await db.insert(backupFiles).values(rows);
}

/** A sample data file as the API answers it (ZSampleDataFile); the source machine is null when hidden from the reader. */
function toSampleDataFile(row: SampleDataFileRow, sourceVisible: boolean): TSampleDataFile {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    size: row.size,
    sourceMachineId: sourceVisible ? row.sourceMachineId : null,
    publishedBy: row.publishedBy,
  };
}

/** Longest list `GET /sample-data-files` answers: sample data files are a handful; the bound keeps the answer small regardless. */
export const MAX_SAMPLE_DATA_FILES = 1000;

/**
 * Every sample data file by name (at most {@link MAX_SAMPLE_DATA_FILES}). The
 * source machine id is given only when the principal may see that machine.
 */
export async function selectSampleDataFiles(db: DbOrTx, hiddenClassIds: number[]): Promise<TSampleDataFile[]> {
  const hidden = hiddenClassIds.length > 0 ? sql`(${inArray(machines.classId, hiddenClassIds)} or ${inArray(accounts.classId, hiddenClassIds)})` : sql`false`;
  const rows = await db
    .select({ row: sampleDataFiles, hidden: sql<boolean | null>`${hidden}` })
    .from(sampleDataFiles)
    .leftJoin(machines, eq(machines.id, sampleDataFiles.sourceMachineId))
    .leftJoin(accounts, eq(accounts.id, machines.accountId))
    .orderBy(asc(sampleDataFiles.name))
    .limit(MAX_SAMPLE_DATA_FILES);
  return rows.map((r) => toSampleDataFile(r.row, r.hidden !== true));
}

export async function findSampleDataFileByName(db: DbOrTx, name: string): Promise<SampleDataFileRow | undefined> {
  const [row] = await db.select().from(sampleDataFiles).where(eq(sampleDataFiles.name, name));
  return row;
}

export async function findSampleDataFileOfOperation(db: DbOrTx, operationId: number): Promise<SampleDataFileRow | undefined> {
  const [row] = await db.select().from(sampleDataFiles).where(eq(sampleDataFiles.operationId, operationId));
  return row;
}

/**
 * Inserts a sample data file's row. Answers `{ row }`, or `{ taken: true }` when
 * another file already has that name (the unique name decides between two
 * publishers racing for one name).
 */
export async function insertSampleDataFile(db: DbOrTx, row: NewSampleDataFile): Promise<{ row: SampleDataFileRow } | { taken: true }> {
  const [inserted] = await db.insert(sampleDataFiles).values(row).onConflictDoNothing().returning();
  return inserted ? { row: inserted } : { taken: true };
}
