/**
 * Backup and sample data files over the MMA protocol (issue 27 point 2; DESIGN §13, §17): a
 * remote MMA's Backup uploads the file of each software its machine runs, and
 * its RestoreBackup downloads the chosen files, through the server, which
 * keeps them in its object store exactly as the simulated agent's effects do
 * (`storage/effects.ts`: the same names, object keys, rows and checks).
 *
 * - **Upload** (Backup): the file is named by the operation's backup time,
 *   fixed in its params at the claim (`backupAt`), and by the operation id;
 *   the object is written before its row (a row always has its object). A
 *   second upload of a software the operation already has answers that file
 *   (`created: false`) and keeps nothing of its own bytes, so a retry after a
 *   lost answer makes nothing twice. 422 for a software the machine does not
 *   run, an unknown category, or an operation that is not a Backup.
 * - **Download** (RestoreBackup): the chosen file of a software, after every
 *   chosen file passed the effect's checks (`checkedRestoreChoice`: exists,
 *   the account's, that software's, the machine runs it, not in Glacier); 422
 *   with the check's words otherwise, so the MMA fails the operation with them
 *   before restoring anything.
 * - **Sample data** (PublishSampleData): the zip an MMA exported, published
 *   as the simulated effect publishes its own (`publishSampleDataFile`).
 * - **Finish** (Backup SUCCESS): {@link missingBackups} names the software
 *   without a file, and a PublishSampleData SUCCESS without its file
 *   ({@link sampleDataPublished}) is as wrong; the finish then ends the
 *   operation FAILURE instead.
 */
import { BACKUP_CATEGORIES, backupSoftwareOf, type TBackupSoftware, type TMmaBackupFileUploaded, type TMmaSampleDataFileUploaded } from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { unprocessable } from '../../lib/problem.js';
import type { ObjectStore } from '../../storage/object-store.js';
import { OperationFailure } from '../../engine/operations/effects.js';
import {
  backupFileName,
  backupObjectKey,
  checkedRestoreChoice,
  publishSampleDataFile,
  readBackupObject,
  sampleDataFileNameOf,
} from '../../storage/effects.js';
import { findBackupFilesOfOperation, findSampleDataFileOfOperation, insertBackupFile } from '../backups/backups.repository.js';
import type { ClaimMachine } from './mma-protocol.repository.js';

type FileMachine = Pick<ClaimMachine, 'id' | 'name' | 'accountId' | 'isLauncher' | 'isSiteMaster'>;
/** The leased operation a call is about: its id, type and params. */
type FileOperation = { id: number; typeName: string; params: Record<string, unknown> };

/** `work`, with an effect's {@link OperationFailure} answered as a 422 in its words (the MMA fails the operation with them). */
export async function refusedAsEffectWould<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof OperationFailure) throw unprocessable(err.message);
    throw err;
  }
}

/** The backup time a claim fixes in a Backup's params (`backupAt`), or undefined when it has none yet. */
export function backupTimeOf(params: Record<string, unknown>): Date | undefined {
  const at = typeof params.backupAt === 'string' ? new Date(params.backupAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

/** Makes the backup file of `software` from `bytes` (see the module's comment); answers it. */
export async function uploadBackupFile(
  { db, store }: { db: Db; store: ObjectStore },
  { operation, machine, software, bytes }: { operation: FileOperation; machine: FileMachine; software: TBackupSoftware; bytes: Uint8Array },
): Promise<TMmaBackupFileUploaded> {
  if (operation.typeName !== 'Backup') throw unprocessable(`Operation ${operation.id} is a ${operation.typeName}, not a Backup: it has no backup files to upload`);
  if (!backupSoftwareOf(machine).includes(software)) throw unprocessable(`Machine ${machine.name} does not run the ${software} software: there is no ${software} backup to make`);
  const category = operation.params.category ?? 'manual';
  if (!(BACKUP_CATEGORIES as readonly unknown[]).includes(category)) throw unprocessable(`Unknown backup category '${String(category)}' (manual, daily, weekly or monthly)`);
  const at = backupTimeOf(operation.params);
  if (!at) throw unprocessable(`Operation ${operation.id} has no backup time: claim it again`);

  const made = (await findBackupFilesOfOperation(db, operation.id)).find((r) => r.softwareName === software);
  if (made) return { software, name: made.name, size: made.size, created: false };
  const name = backupFileName({ machineName: machine.name, software, at, operationId: operation.id });
  const objectKey = backupObjectKey(machine.accountId, machine.id, name);
  await store.put(objectKey, bytes, { contentType: 'application/gzip' });
  const row = await insertBackupFile(db, {
    accountId: machine.accountId,
    machineId: machine.id,
    softwareName: software,
    name,
    createdAt: at,
    category: category as string,
    size: bytes.length,
    storageClass: 'Standard',
    objectKey,
    operationId: operation.id,
  });
  return { software, name: row.name, size: row.size, created: true };
}

/** The bytes and name of the chosen backup file of `software` of a RestoreBackup (see the module's comment). */
export async function downloadBackupFile(
  { db, store }: { db: DbOrTx; store: ObjectStore },
  { operation, machine, software }: { operation: FileOperation; machine: FileMachine; software: TBackupSoftware },
): Promise<{ name: string; bytes: Uint8Array }> {
  if (operation.typeName !== 'RestoreBackup') throw unprocessable(`Operation ${operation.id} is a ${operation.typeName}, not a RestoreBackup: it has no backup files to download`);
  return refusedAsEffectWould(async () => {
    const chosen = await checkedRestoreChoice(db, machine, operation.params);
    const file = chosen.find((c) => c.software === software);
    if (!file) throw new OperationFailure(`No ${software} backup file was chosen to restore`);
    return { name: file.row.name, bytes: await readBackupObject(store, file.row) };
  });
}

/**
 * Publishes a PublishSampleData's file from `bytes` (`publishSampleDataFile`,
 * the simulated effect's own write): named by its `fileName`, once per
 * operation. 422 for an operation that is not a PublishSampleData, a machine
 * without a site master, no file name, or a name another file has.
 */
export async function uploadSampleDataFile(
  { db, store }: { db: Db; store: ObjectStore },
  { operation, machine, bytes }: { operation: FileOperation & { userName: string }; machine: FileMachine; bytes: Uint8Array },
): Promise<TMmaSampleDataFileUploaded> {
  if (operation.typeName !== 'PublishSampleData') throw unprocessable(`Operation ${operation.id} is a ${operation.typeName}, not a PublishSampleData: it has no sample data file to upload`);
  return refusedAsEffectWould(async () => {
    const fileName = sampleDataFileNameOf(machine, operation.params);
    const { row, created } = await publishSampleDataFile(db, store, { operation, machine, fileName, bytes, createdAt: new Date() });
    return { name: row.name, size: row.size, created };
  });
}

/** Whether the PublishSampleData `operationId` has made its file. */
export async function sampleDataPublished(db: DbOrTx, operationId: number): Promise<boolean> {
  return (await findSampleDataFileOfOperation(db, operationId)) !== undefined;
}

/** The software of the machine whose backup file the Backup `operationId` has not made (empty: all made). */
export async function missingBackups(db: DbOrTx, operationId: number, machine: Pick<FileMachine, 'isLauncher' | 'isSiteMaster'>): Promise<TBackupSoftware[]> {
  const made = new Set((await findBackupFilesOfOperation(db, operationId)).map((r) => r.softwareName));
  return backupSoftwareOf(machine).filter((s) => !made.has(s));
}
