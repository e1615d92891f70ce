/**
 * Files in the object store for the demo (DESIGN §4, §13): the default sample
 * data files (both fleets: three small objects) and, for `demo` only, the
 * library's objects, the cloud library (`library-files.ts`) and backup
 * files of a few accounts' machines, so that Restore Backup and Reinstall
 * Sample Data have something to show. The scale fleet gets no backup objects,
 * which keeps `SEED=scale` fast.
 *
 * Which machines: the first two live accounts with machines (by id) of each
 * class Experimental, Internal Testing, Customer Staging and Customer
 * Production; per account the launcher machine and at most two site masters.
 * Per machine and software: two daily backups, a weekly one and a monthly one
 * already moved to Glacier, before the seed's BASE_DATE. Deterministic: the same
 * bytes on every run. Objects are written before their rows (one insert at the
 * end), as the effects do; seeding twice into one store rewrites the same keys.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_CUSTOMER_STAGING, CLASS_EXPERIMENTAL, CLASS_INTERNAL_TESTING, type TBackupSoftware } from '@fleet/contracts';
import { backupSoftwareOf } from '@fleet/contracts';
import type { DbOrTx } from '../db/client.js';
import { accounts, machines, sampleDataFiles } from '../db/schema.js';
import { insertSeedBackupFiles, type NewBackupFile } from '../modules/backups/backups.repository.js';
import type { ObjectStore } from '../storage/object-store.js';
import { backupObjectKey, sampleDataObjectKey } from '../storage/effects.js';
import { seedOf, simulatedDump, simulatedSampleData } from '../storage/simulated-files.js';
import { daysBefore } from './random.js';
import { DEFAULT_SAMPLE_DATA_FILES } from './settings.js';
import { seedLibraryObjects } from './library-files.js';

const BACKUP_CLASSES = [CLASS_EXPERIMENTAL, CLASS_INTERNAL_TESTING, CLASS_CUSTOMER_STAGING, CLASS_CUSTOMER_PRODUCTION];
const ACCOUNTS_PER_CLASS = 2;
const SITE_MASTERS_PER_ACCOUNT = 2;

/** The backups each seeded machine gets per software: days before BASE_DATE, category, storage class. */
const SCHEDULE = [
  { days: 1, category: 'daily', storageClass: 'Standard' },
  { days: 2, category: 'daily', storageClass: 'Standard' },
  { days: 6, category: 'weekly', storageClass: 'Standard' },
  { days: 31, category: 'monthly', storageClass: 'Glacier' },
] as const;

const TAG: Record<TBackupSoftware, string> = { launcher: 'launcher-db', siteMaster: 'sitemaster-db', auditChangeLog: 'audit-changelog' };
/** `20261031T030000Z`. */
const compact = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** Writes the stored files of `kind` (module docstring); answers how many objects were written. */
export async function seedStoredFiles(db: DbOrTx, store: ObjectStore, kind: 'demo' | 'scale'): Promise<{ objects: number }> {
  let objects = 0;
  const samples = [];
  for (const name of DEFAULT_SAMPLE_DATA_FILES) {
    const createdAt = daysBefore(90);
    const bytes = simulatedSampleData({ name, source: 'Fleet defaults', createdAt, seed: seedOf('sample', name) });
    const objectKey = sampleDataObjectKey(name, null);
    await store.put(objectKey, bytes, { contentType: 'application/zip' });
    objects += 1;
    samples.push({ name, createdAt, size: bytes.length, sourceMachineId: null, publishedBy: 'admin', objectKey });
  }
  await db.insert(sampleDataFiles).values(samples).onConflictDoNothing();
  if (kind === 'scale') return { objects };
  objects += (await seedLibraryObjects(db, store)).objects;

  const rows: NewBackupFile[] = [];
  for (const machine of await backupMachines(db)) {
    for (const software of backupSoftwareOf(machine)) {
      for (const { days, category, storageClass } of SCHEDULE) {
        const createdAt = new Date(daysBefore(days).getTime() + 3 * 3_600_000); // 03:00 UTC, the default backup time
        const name = `${machine.name}_${TAG[software]}_${compact(createdAt)}_${category}.sql.gz`;
        const dump = await simulatedDump({ software, machine: machine.name, createdAt, seed: seedOf(machine.id, software, days) });
        const objectKey = backupObjectKey(machine.accountId, machine.id, name);
        await store.put(objectKey, dump.bytes, { contentType: 'application/gzip', storageClass });
        objects += 1;
        rows.push({ accountId: machine.accountId, machineId: machine.id, softwareName: software, name, createdAt, category, size: dump.bytes.length, storageClass, objectKey, operationId: null });
      }
    }
  }
  await insertSeedBackupFiles(db, rows);
  return { objects };
}

/** The machines that get seeded backups (module docstring), by account then launcher first. */
async function backupMachines(db: DbOrTx) {
  const live = await db
    .select({ id: machines.id, name: machines.name, accountId: machines.accountId, classId: accounts.classId, isLauncher: machines.isLauncher, isSiteMaster: machines.isSiteMaster })
    .from(machines)
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(isNull(machines.deletedAt), isNull(accounts.deletedAt), inArray(accounts.classId, BACKUP_CLASSES)))
    .orderBy(asc(machines.accountId), sql`${machines.isLauncher} desc`, asc(machines.id));
  const accountsOfClass = new Map<number, Set<number>>();
  const sitesOfAccount = new Map<number, number>();
  return live.filter((m) => {
    const chosen = accountsOfClass.get(m.classId) ?? new Set<number>();
    accountsOfClass.set(m.classId, chosen);
    if (!chosen.has(m.accountId)) {
      if (chosen.size >= ACCOUNTS_PER_CLASS) return false;
      chosen.add(m.accountId);
    }
    if (m.isLauncher) return true;
    const sites = sitesOfAccount.get(m.accountId) ?? 0;
    if (!m.isSiteMaster || sites >= SITE_MASTERS_PER_ACCOUNT) return false;
    sitesOfAccount.set(m.accountId, sites + 1);
    return true;
  });
}
