/**
 * The effects of the operations that use the object store (DESIGN §12, §13;
 * contract in `engine/operations/effects.ts`; invariants in `README.md` beside
 * this file):
 *
 * - **Backup** writes one file per software of the machine (launcher on a
 *   launcher machine; siteMaster and auditChangeLog on a site master; all three
 *   on an AllInOne machine, which is both) and its `backup_files` row. Params:
 *   `category` (manual, daily, weekly, monthly; default manual). Each file's
 *   object key and row are keyed by the operation id, and its time is
 *   checkpointed (`backupAt`) before the first write, so a retry rewrites the
 *   same bytes under the same key and finds the rows already made.
 * - **RestoreBackup** reads the chosen files (params `launcherBackupFile`,
 *   `siteMasterBackupFile`, `auditChangeLogBackupFile`: names, at least one) and
 *   restores them; it checks every file before restoring any. Restoring writes
 *   nothing outside the simulated machine, so a retry restores again.
 * - **PublishSampleData** writes the machine's site master data as the sample
 *   data file `fileName` (param) and its `sample_data_files` row.
 *
 * Each fails with an {@link OperationFailure} whose message says what is wrong
 * (a missing file, a file of another account, a file in Glacier, a taken name).
 */
import { BACKUP_CATEGORIES, backupSoftwareOf, RESTORE_BACKUP_PARAMS, type TBackupSoftware } from '@fleet/contracts';
import type { DbOrTx } from '../db/client.js';
import { OperationFailure, type EffectMachine, type OperationEffect, type OperationEffectContext, type OperationEffects } from '../engine/operations/effects.js';
import {
  findBackupFilesByNames,
  findBackupFilesOfOperation,
  findSampleDataFileByName,
  findSampleDataFileOfOperation,
  insertBackupFile,
  insertSampleDataFile,
  type BackupFileRow,
  type SampleDataFileRow,
} from '../modules/backups/backups.repository.js';
import { keySegment, ObjectInGlacierError, ObjectNotFoundError, type ObjectStore } from './object-store.js';
import { DamagedFileError, formatSize, readDump, seedOf, simulatedDump, simulatedSampleData } from './simulated-files.js';

/** How each software reads in output lines and file names. */
const SOFTWARE: Record<TBackupSoftware, { label: string; fileTag: string; database: string; service: string }> = {
  launcher: { label: 'launcher', fileTag: 'launcher-db', database: 'launcher', service: 'fleet-launcher' },
  siteMaster: { label: 'site master', fileTag: 'sitemaster-db', database: 'sitemaster', service: 'fleet-sitemaster' },
  auditChangeLog: { label: 'audit changelog', fileTag: 'audit-changelog', database: 'audit_changelog', service: 'fleet-sitemaster' },
};

/** Simulated work per step, ms before SIM_AGENT_DELAY_MS scaling. */
const WORK_MS = { dump: 4000, upload: 1500, download: 1500, restore: 5000, export: 4000 } as const;

/** `20261103T040000Z`: a backup time as file names carry it. */
const compactTime = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** The name of the backup file an operation makes for a software (unique: it carries the operation id). */
export function backupFileName(o: { machineName: string; software: TBackupSoftware; at: Date; operationId: number }): string {
  return `${o.machineName}_${SOFTWARE[o.software].fileTag}_${compactTime(o.at)}_op${o.operationId}.sql.gz`;
}

/** Object key of a backup file: `backups/{accountId}/{machineId}/{name}`. */
export const backupObjectKey = (accountId: number, machineId: number, name: string) => `backups/${accountId}/${machineId}/${keySegment(name)}`;

/** Object key of a sample data file published by an operation, or seeded (`operationId` null). */
export const sampleDataObjectKey = (name: string, operationId: number | null) =>
  operationId === null ? `sample-data/default/${keySegment(name)}` : `sample-data/op-${operationId}/${keySegment(name)}`;

const stringParam = (params: Record<string, unknown>, name: string): string | null => {
  const value = params[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

const stopIfAborted = (ctx: OperationEffectContext) => {
  if (ctx.signal.aborted) throw new OperationFailure('Stopped before the work was done');
};

/**
 * A RestoreBackup's chosen files (params `RESTORE_BACKUP_PARAMS`: names, at
 * least one), each checked against its row: it exists, is the account's, is
 * a backup of that software, the machine runs that software, and it is not in
 * Glacier. Throws {@link OperationFailure} saying what is wrong; the simulated
 * effect and a remote MMA's download (`modules/mma-protocol`) check alike.
 */
export async function checkedRestoreChoice(
  db: DbOrTx,
  machine: Pick<EffectMachine, 'name' | 'accountId' | 'isLauncher' | 'isSiteMaster'>,
  params: Record<string, unknown>,
): Promise<{ software: TBackupSoftware; row: BackupFileRow }[]> {
  const chosen = (Object.entries(RESTORE_BACKUP_PARAMS) as [TBackupSoftware, string][]).flatMap(([software, param]) => {
    const name = stringParam(params, param);
    return name ? [{ software, name }] : [];
  });
  if (chosen.length === 0) throw new OperationFailure('No backup file was chosen to restore');
  const rows = new Map((await findBackupFilesByNames(db, chosen.map((c) => c.name))).map((r) => [r.name, r]));
  const runs = new Set(backupSoftwareOf(machine));
  return chosen.map(({ software, name }) => {
    const { label } = SOFTWARE[software];
    const row = rows.get(name);
    if (!row) throw new OperationFailure(`Backup file ${name} does not exist`);
    if (row.accountId !== machine.accountId) throw new OperationFailure(`Backup file ${name} belongs to another account`);
    if (row.softwareName !== software) throw new OperationFailure(`Backup file ${name} is a ${SOFTWARE[row.softwareName as TBackupSoftware]?.label ?? row.softwareName} backup, not a ${label} one`);
    if (!runs.has(software)) throw new OperationFailure(`Machine ${machine.name} has no ${label} to restore ${name} into`);
    if (row.storageClass === 'Glacier') throw new OperationFailure(`Backup file ${name} is in Glacier: it must be restored from Glacier first`);
    return { software, row };
  });
}

/** The bytes of a checked backup file; {@link OperationFailure} when the object store has it not, or only in Glacier. */
export async function readBackupObject(store: ObjectStore, row: BackupFileRow): Promise<Uint8Array> {
  try {
    return await store.get(row.objectKey);
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw new OperationFailure(`Backup file ${row.name} is missing from the object store`);
    if (err instanceof ObjectInGlacierError) throw new OperationFailure(`Backup file ${row.name} is in Glacier: it must be restored from Glacier first`);
    throw err;
  }
}

/** A PublishSampleData's file name (param `fileName`); {@link OperationFailure} without one, or on a machine without a site master. */
export function sampleDataFileNameOf(machine: Pick<EffectMachine, 'name' | 'isSiteMaster'>, params: Record<string, unknown>): string {
  const fileName = stringParam(params, 'fileName');
  if (!fileName) throw new OperationFailure('No sample data file name was given');
  if (!machine.isSiteMaster) throw new OperationFailure(`Machine ${machine.name} has no site master data to publish`);
  return fileName;
}

/**
 * Makes a PublishSampleData's file from `bytes` (the object first, then its
 * row; keyed by the operation), once: answers the file the operation already
 * made (`created: false`) when it has one. {@link OperationFailure} when
 * another file has the name (what this operation wrote is removed).
 */
export async function publishSampleDataFile(
  db: DbOrTx,
  store: ObjectStore,
  o: { operation: { id: number; userName: string }; machine: Pick<EffectMachine, 'id'>; fileName: string; bytes: Uint8Array; createdAt: Date },
): Promise<{ row: SampleDataFileRow; created: boolean }> {
  const done = await findSampleDataFileOfOperation(db, o.operation.id);
  if (done) return { row: done, created: false };
  const key = sampleDataObjectKey(o.fileName, o.operation.id);
  /** The name is another operation's: remove what an attempt of this one may have written, and fail. */
  const taken = async () => {
    await store.delete(key);
    return new OperationFailure(`A sample data file named ${o.fileName} already exists`);
  };
  if (await findSampleDataFileByName(db, o.fileName)) throw await taken();
  await store.put(key, o.bytes, { contentType: 'application/zip' });
  const inserted = await insertSampleDataFile(db, {
    name: o.fileName,
    createdAt: o.createdAt,
    size: o.bytes.length,
    sourceMachineId: o.machine.id,
    publishedBy: o.operation.userName,
    objectKey: key,
    operationId: o.operation.id,
  });
  if ('row' in inserted) return { row: inserted.row, created: true };
  // A fenced-out earlier attempt of this operation may have inserted the row first: then the file is made.
  const mine = await findSampleDataFileOfOperation(db, o.operation.id);
  if (!mine) throw await taken();
  return { row: mine, created: false };
}

/** Creates the Backup, RestoreBackup and PublishSampleData effects on `store`. */
export function createStorageEffects({ store }: { store: ObjectStore }): OperationEffects {
  const backup: OperationEffect = async (ctx) => {
    const { machine, operation } = ctx;
    const software = backupSoftwareOf(machine);
    if (software.length === 0) throw new OperationFailure(`Machine ${machine.name} runs neither a launcher nor a site master: there is nothing to back up`);
    const category = operation.params.category ?? 'manual';
    if (!(BACKUP_CATEGORIES as readonly unknown[]).includes(category)) {
      throw new OperationFailure(`Unknown backup category '${String(category)}' (manual, daily, weekly or monthly)`);
    }

    // The backup's time names its files: fixed before the first write, so that a retry names them the same.
    let at = typeof operation.params.backupAt === 'string' ? new Date(operation.params.backupAt) : null;
    if (!at || Number.isNaN(at.getTime())) {
      at = new Date();
      await ctx.checkpoint({ backupAt: at.toISOString() });
    }
    const made = new Map((await findBackupFilesOfOperation(ctx.db, operation.id)).map((r) => [r.softwareName, r]));
    await ctx.output(`Backing up ${software.map((s) => SOFTWARE[s].label).join(', ')} of ${machine.name} (${category}) to the ${store.kind} object store`);

    for (const s of software) {
      const { label, database } = SOFTWARE[s];
      const done = made.get(s);
      if (done) {
        await ctx.output(`The ${label} backup was already made: ${done.name} (${formatSize(done.size)})`);
        continue;
      }
      stopIfAborted(ctx);
      const name = backupFileName({ machineName: machine.name, software: s, at, operationId: operation.id });
      const key = backupObjectKey(machine.accountId, machine.id, name);
      await ctx.deployerLog(`pg_dump --format=plain --dbname=${database} | gzip > ${name}`);
      await ctx.work(WORK_MS.dump);
      const dump = await simulatedDump({ software: s, machine: machine.name, createdAt: at, seed: seedOf(operation.id, s) });
      await ctx.deployerLog(`${database}: ${dump.header.tables} tables, ${dump.header.rows} rows dumped`);
      await ctx.work(WORK_MS.upload);
      // The object first, then its row: a row always has its object (README.md).
      await store.put(key, dump.bytes, { contentType: 'application/gzip' });
      await ctx.deployerLog(`uploaded ${name} (${dump.bytes.length} bytes) to ${key}`);
      const row = await insertBackupFile(ctx.db, {
        accountId: machine.accountId,
        machineId: machine.id,
        softwareName: s,
        name,
        createdAt: at,
        category: category as string,
        size: dump.bytes.length,
        storageClass: 'Standard',
        objectKey: key,
        operationId: operation.id,
      });
      await ctx.output(`Backed up the ${label} database: ${row.name} (${formatSize(row.size)})`);
    }
  };

  const restore: OperationEffect = async (ctx) => {
    const { machine, operation } = ctx;
    const chosen = await checkedRestoreChoice(ctx.db, machine, operation.params);

    // Every file is checked, and read, before any is restored: a bad choice restores nothing.
    const files: { software: TBackupSoftware; row: BackupFileRow; bytes: Uint8Array }[] = [];
    for (const { software, row } of chosen) {
      stopIfAborted(ctx);
      await ctx.deployerLog(`downloading ${row.objectKey} (${row.size} bytes)`);
      await ctx.work(WORK_MS.download);
      files.push({ software, row, bytes: await readBackupObject(store, row) });
    }
    const headers = files.map(({ row, bytes }) => {
      try {
        return readDump(bytes);
      } catch (err) {
        if (err instanceof DamagedFileError) throw new OperationFailure(`Backup file ${row.name} is damaged: ${err.message}`);
        throw err;
      }
    });

    for (const [i, { software, row }] of files.entries()) {
      const { label, database, service } = SOFTWARE[software];
      const header = headers[i]!;
      stopIfAborted(ctx);
      await ctx.output(`Restoring the ${label} database from ${row.name}`);
      await ctx.deployerLog(`systemctl stop ${service}`);
      await ctx.deployerLog(`dropdb --if-exists ${database} && createdb ${database} && gunzip -c ${row.name} | psql --dbname=${database}`);
      await ctx.work(WORK_MS.restore);
      await ctx.deployerLog(`systemctl start ${service}`);
      await ctx.output(`Restored the ${label} database from ${row.name} (${formatSize(row.size)}, ${header.tables} tables, ${header.rows} rows, backed up ${header.createdAt})`);
    }
  };

  const publish: OperationEffect = async (ctx) => {
    const { machine, operation } = ctx;
    const fileName = sampleDataFileNameOf(machine, operation.params);
    const done = await findSampleDataFileOfOperation(ctx.db, operation.id);
    if (done) {
      await ctx.output(`Sample data file ${done.name} was already published (${formatSize(done.size)})`);
      return;
    }
    if (await findSampleDataFileByName(ctx.db, fileName)) {
      // What an earlier attempt of this operation may have written goes (the name is another's).
      await store.delete(sampleDataObjectKey(fileName, operation.id));
      throw new OperationFailure(`A sample data file named ${fileName} already exists`);
    }

    await ctx.output(`Publishing the site master data of ${machine.name} as sample data file ${fileName}`);
    await ctx.deployerLog(`sitemaster-export --format=sample --output=${keySegment(fileName)}`);
    await ctx.work(WORK_MS.export);
    stopIfAborted(ctx);
    const createdAt = operation.startedAt ?? new Date();
    const bytes = simulatedSampleData({ name: fileName, source: machine.name, createdAt, seed: seedOf(operation.id, 'sample') });
    await ctx.work(WORK_MS.upload);
    const { row } = await publishSampleDataFile(ctx.db, store, { operation, machine, fileName, bytes, createdAt });
    await ctx.deployerLog(`uploaded ${bytes.length} bytes to ${row.objectKey}`);
    await ctx.output(`Published sample data file ${fileName} (${formatSize(bytes.length)})`);
  };

  return { Backup: backup, RestoreBackup: restore, PublishSampleData: publish };
}
