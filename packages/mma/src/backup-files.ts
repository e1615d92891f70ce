/**
 * The files of a Backup, RestoreBackup or PublishSampleData run (README "Backups and restores";
 * the server's `modules/mma-protocol/backup-files.ts`): they travel through
 * the server, which keeps them in its object store.
 *
 * - **Backup**: the run gets a folder of its own (`FLEET_BACKUP_DIR`) and the
 *   software to back up (`FLEET_BACKUP_SOFTWARE`, comma-separated: launcher;
 *   siteMaster and auditChangeLog on a site master). The executor writes one
 *   gzip'd dump per software, `<software>.sql.gz`; once it ends SUCCESS, each is
 *   uploaded ({@link deliverFiles}); a missing one fails the operation.
 * - **RestoreBackup**: every chosen file (`params.launcherBackupFile`, …) is
 *   downloaded into the run's folder (`FLEET_RESTORE_DIR`,
 *   `<software>.sql.gz`; `FLEET_RESTORE_SOFTWARE` names them) before the
 *   executor starts ({@link prepareFiles}); a choice the server refuses (422:
 *   another account's file, one in Glacier) fails the operation with the
 *   server's words, before anything is restored.
 * - **PublishSampleData**: the executor writes the zip of the site master's
 *   data to `FLEET_SAMPLE_DATA_OUT` (in the run's folder; the name to publish
 *   is `FLEET_PARAM_FILE_NAME`); once it ends SUCCESS the zip is uploaded and
 *   the server publishes it; a missing zip or a taken name fails it.
 *
 * The folder is removed when the run ends ({@link removeFiles}).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupSoftwareOf, RESTORE_BACKUP_PARAMS, type TBackupSoftware, type TMmaClaimedOperation } from '@fleet/contracts';
import { HttpError, type MmaClient } from './client.js';

/** A run's folder and the variables that name it to the executor. */
export interface RunFiles {
  dir: string;
  env: Record<string, string>;
  /** The software whose files are in (RestoreBackup) or must be written to (Backup) the folder. */
  software: TBackupSoftware[];
}

/** The operation cannot go on: its message ends it FAILURE. */
export class FilesFailure extends Error {}

/** Where a PublishSampleData's executor writes its zip. */
export const sampleDataPath = (dir: string) => join(dir, 'sample-data.zip');

/** The file of `software` in a run's folder. */
export const backupFilePath = (dir: string, software: TBackupSoftware) => join(dir, `${software}.sql.gz`);

/** The software a RestoreBackup chose a file of. */
const chosenSoftware = (params: Record<string, unknown>) =>
  (Object.entries(RESTORE_BACKUP_PARAMS) as [TBackupSoftware, string][]).filter(([, param]) => typeof params[param] === 'string' && String(params[param]).trim() !== '').map(([s]) => s);

/** A 422 of the server (what is wrong with the operation) as the operation's failure; anything else as it is. */
export function asFailure(err: unknown): unknown {
  return err instanceof HttpError && err.status === 422 ? new FilesFailure(err.detail) : err;
}

/**
 * The run's folder of a Backup, RestoreBackup (its chosen files downloaded
 * into it) or PublishSampleData, or undefined for another type. Throws
 * {@link FilesFailure} when the server refuses the choice, or the client's
 * error (a lost lease: 409/404).
 */
export async function prepareFiles(op: TMmaClaimedOperation, client: MmaClient, signal: AbortSignal, output: (line: string) => void): Promise<RunFiles | undefined> {
  if (op.typeName !== 'Backup' && op.typeName !== 'RestoreBackup' && op.typeName !== 'PublishSampleData') return undefined;
  const dir = await mkdtemp(join(tmpdir(), `fleet-mma-op${op.operationId}-`));
  if (op.typeName === 'PublishSampleData') return { dir, software: [], env: { FLEET_SAMPLE_DATA_OUT: sampleDataPath(dir) } };
  if (op.typeName === 'Backup') {
    const software = backupSoftwareOf(op.machine);
    return { dir, software, env: { FLEET_BACKUP_DIR: dir, FLEET_BACKUP_SOFTWARE: software.join(',') } };
  }
  const software = chosenSoftware(op.params);
  try {
    // Every chosen file first: the server checks the whole choice at each download, so a bad one stops all.
    for (const s of software) {
      const bytes = await client.downloadBackupFile({ operationId: op.operationId, attempt: op.attempt, software: s }, signal);
      await writeFile(backupFilePath(dir, s), bytes);
      output(`Downloaded the ${s} backup file (${bytes.length} bytes)`);
    }
  } catch (err) {
    await removeFiles({ dir, software, env: {} });
    throw asFailure(err);
  }
  return { dir, software, env: { FLEET_RESTORE_DIR: dir, FLEET_RESTORE_SOFTWARE: software.join(',') } };
}

/**
 * After a Backup's or PublishSampleData's executor ended SUCCESS: uploads the
 * file of each software, or the zip. Throws {@link FilesFailure} for a file the
 * executor did not write or one the server refuses, or the client's error (a
 * lost lease).
 */
export async function deliverFiles(op: TMmaClaimedOperation, files: RunFiles, client: MmaClient, signal: AbortSignal, output: (line: string) => void): Promise<void> {
  if (op.typeName === 'PublishSampleData') {
    const bytes = await readFile(sampleDataPath(files.dir)).catch(() => undefined);
    if (!bytes) throw new FilesFailure('The executor wrote no sample data file (FLEET_SAMPLE_DATA_OUT)');
    try {
      const uploaded = await client.uploadSampleDataFile({ operationId: op.operationId, attempt: op.attempt, bytes }, signal);
      output(`Uploaded the sample data file ${uploaded.name} (${uploaded.size} bytes)`);
    } catch (err) {
      throw asFailure(err);
    }
    return;
  }
  if (op.typeName !== 'Backup') return;
  for (const software of files.software) {
    let bytes: Buffer;
    try {
      bytes = await readFile(backupFilePath(files.dir, software));
    } catch {
      throw new FilesFailure(`The executor wrote no ${software} backup (${software}.sql.gz in FLEET_BACKUP_DIR)`);
    }
    try {
      const uploaded = await client.uploadBackupFile({ operationId: op.operationId, attempt: op.attempt, software, bytes }, signal);
      output(`Uploaded the ${software} backup: ${uploaded.name} (${uploaded.size} bytes)`);
    } catch (err) {
      throw asFailure(err);
    }
  }
}

/** Removes a run's folder (never throws). */
export async function removeFiles(files: RunFiles | undefined): Promise<void> {
  if (files) await rm(files.dir, { recursive: true, force: true }).catch(() => undefined);
}
