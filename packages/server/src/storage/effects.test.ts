/**
 * The storage effects (Backup, RestoreBackup, PublishSampleData; DESIGN §13)
 * called directly, as the agent calls them, with a context built here on a real
 * PostgreSQL and a real object store: the local folder, and S3 (s3rver) for the
 * backup and restore round trip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { OPERATION_MODE_STABLE, type TOperationTypeName } from '@fleet/contracts';
import { backupFiles, operations, sampleDataFiles } from '../db/schema.js';
import { useTestDatabase } from '../../test/harness.js';
import { insertAccount, insertMachine } from '../../test/fixtures.js';
import { startS3TestServer, type S3TestServer } from '../../test/s3-server.js';
import { createOperationQueue } from '../engine/operations/queue.js';
import { createCloudProvider } from '../engine/cloud/index.js';
import { OperationFailure, type EffectMachine, type OperationEffectContext } from '../engine/operations/effects.js';
import type { OperationRow } from '../engine/operations/operations.repository.js';
import { createLocalObjectStore } from './local-store.js';
import { createS3ObjectStore } from './s3-store.js';
import type { ObjectStore } from './object-store.js';
import { createStorageEffects } from './effects.js';
import { readDump } from './simulated-files.js';
import { insertBackupFile } from '../modules/backups/backups.repository.js';

const database = useTestDatabase({ max: 4 });
let s3: S3TestServer;
let localRoot: string;
let local: ObjectStore;
const queue = createOperationQueue({ announce: () => undefined });

beforeAll(async () => {
  s3 = await startS3TestServer();
  localRoot = await mkdtemp(join(tmpdir(), 'fleet-effects-'));
  local = createLocalObjectStore({ root: localRoot });
});
afterAll(async () => {
  await s3?.close();
  await rm(localRoot, { recursive: true, force: true });
});

type Kind = 'allInOne' | 'launcher' | 'siteMaster' | 'neither';
const FLAGS: Record<Kind, { isLauncher: boolean; isSiteMaster: boolean }> = {
  allInOne: { isLauncher: true, isSiteMaster: true },
  launcher: { isLauncher: true, isSiteMaster: false },
  siteMaster: { isLauncher: false, isSiteMaster: true },
  neither: { isLauncher: false, isSiteMaster: false },
};

let accounts = 0;
async function newMachine(kind: Kind, accountId?: number): Promise<EffectMachine> {
  accounts += 1;
  const account = accountId ?? (await insertAccount(database.db, { name: `Effects ${accounts}`, classId: 1 })).id;
  const m = await insertMachine(database.db, { accountId: account, classId: 1, name: `effects-${accounts}-${kind}`, ...FLAGS[kind] });
  return { id: m.id, name: m.name, accountId: account, classId: 1, isLauncher: m.isLauncher, isSiteMaster: m.isSiteMaster, sampleData: 'None', sampleDataFile: null, cloudId: null };
}

/** Queues an operation of `typeName` on the machine as the API would, and answers its row. */
async function queued(machine: EffectMachine, typeName: TOperationTypeName, params: Record<string, unknown> = {}): Promise<OperationRow> {
  const [q] = await database.db.transaction((tx) =>
    queue.enqueue(tx, [
      {
        machine: { id: machine.id, accountId: machine.accountId, classId: 1, accountClassId: 1, operationMode: OPERATION_MODE_STABLE, failCounter: 0 },
        typeName,
        user: 'operator',
        activityId: null,
        params,
      },
    ]),
  );
  return reread(q!.operation.id);
}

async function reread(id: number): Promise<OperationRow> {
  const [row] = await database.db.select().from(operations).where(eq(operations.id, id));
  return row!;
}

/** A context as the agent builds it: output lines collected, checkpoints merged into the row's params. */
function contextFor(operation: OperationRow, machine: EffectMachine) {
  const output: string[] = [];
  const deployerLog: string[] = [];
  const ctx: OperationEffectContext = {
    db: database.db,
    operation,
    machine,
    output: async (line) => void output.push(line),
    deployerLog: async (line) => void deployerLog.push(line),
    fenced: (work) => database.db.transaction(work),
    checkpoint: async (patch) => {
      await database.db
        .update(operations)
        .set({ params: sql`${operations.params} || ${JSON.stringify(patch)}::jsonb` })
        .where(eq(operations.id, operation.id));
    },
    work: async () => undefined,
    signal: new AbortController().signal,
    cloud: createCloudProvider({ name: 'simulated', db: database.db, simDelayMs: 0 }),
  };
  return { ctx, output, deployerLog };
}

/** Runs an effect on a fresh read of the operation's row (as each attempt of the agent does). */
async function run(store: ObjectStore, typeName: 'Backup' | 'RestoreBackup' | 'PublishSampleData', operationId: number, machine: EffectMachine) {
  const c = contextFor(await reread(operationId), machine);
  await createStorageEffects({ store })[typeName]!(c.ctx);
  return c;
}

async function failure(store: ObjectStore, typeName: 'Backup' | 'RestoreBackup' | 'PublishSampleData', operationId: number, machine: EffectMachine): Promise<string> {
  const err = await run(store, typeName, operationId, machine).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationFailure);
  return (err as Error).message;
}

const rowsOf = (operationId: number) => database.db.select().from(backupFiles).where(eq(backupFiles.operationId, operationId)).orderBy(backupFiles.id);

describe.each([
  { name: 'local folder', store: () => local },
  {
    name: 'S3 (s3rver)',
    store: () => createS3ObjectStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', credentials: s3.credentials, forcePathStyle: true }),
  },
])('Backup then RestoreBackup on the $name store', ({ store: makeStore }) => {
  it('backs up each software of an AllInOne machine to a real file and restores them', async () => {
    const store = makeStore();
    const machine = await newMachine('allInOne');
    const op = await queued(machine, 'Backup', { category: 'daily' });
    const { output, deployerLog } = await run(store, 'Backup', op.id, machine);

    const rows = await rowsOf(op.id);
    expect(rows.map((r) => r.softwareName)).toEqual(['launcher', 'siteMaster', 'auditChangeLog']);
    for (const row of rows) {
      expect(row).toMatchObject({ accountId: machine.accountId, machineId: machine.id, category: 'daily', storageClass: 'Standard', operationId: op.id });
      expect(row.name).toMatch(new RegExp(`^${machine.name}_[a-z-]+_\\d{8}T\\d{6}Z_op${op.id}\\.sql\\.gz$`));
      expect(row.objectKey).toBe(`backups/${machine.accountId}/${machine.id}/${row.name}`);
      const info = await store.head(row.objectKey);
      expect(info?.size).toBe(row.size);
      // A few KB to a few hundred KB, as a small database's dump compresses.
      expect(row.size).toBeGreaterThan(1024);
      expect(row.size).toBeLessThan(500 * 1024);
      expect(readDump(await store.get(row.objectKey))).toMatchObject({ software: row.softwareName, machine: machine.name });
      expect(output.some((l) => l.includes(row.name) && /\d+(\.\d)? KB/.test(l))).toBe(true);
    }
    expect(output[0]).toMatch(/^Backing up launcher, site master, audit changelog of .* \(daily\)/);
    expect(deployerLog.some((l) => l.startsWith('pg_dump'))).toBe(true);
    // The backup time was checkpointed before the first write, and names the files.
    expect((await reread(op.id)).params.backupAt).toEqual(rows[0]!.createdAt.toISOString());

    const restoreOp = await queued(machine, 'RestoreBackup', {
      launcherBackupFile: rows[0]!.name,
      siteMasterBackupFile: rows[1]!.name,
      auditChangeLogBackupFile: null,
    });
    const restored = await run(store, 'RestoreBackup', restoreOp.id, machine);
    expect(restored.output.filter((l) => l.startsWith('Restored'))).toEqual([
      expect.stringMatching(new RegExp(`^Restored the launcher database from ${rows[0]!.name} \\(\\d+\\.\\d KB, 5 tables, \\d+ rows`)),
      expect.stringMatching(new RegExp(`^Restored the site master database from ${rows[1]!.name} \\(\\d+\\.\\d KB, 6 tables`)),
    ]);
  });
});

describe('Backup', () => {
  it('writes the launcher file on a launcher machine, siteMaster and auditChangeLog on a site master; manual by default', async () => {
    const launcher = await newMachine('launcher');
    const site = await newMachine('siteMaster', launcher.accountId);
    const a = await queued(launcher, 'Backup');
    const b = await queued(site, 'Backup');
    await run(local, 'Backup', a.id, launcher);
    await run(local, 'Backup', b.id, site);
    expect((await rowsOf(a.id)).map((r) => [r.softwareName, r.category])).toEqual([['launcher', 'manual']]);
    expect((await rowsOf(b.id)).map((r) => [r.softwareName, r.category])).toEqual([
      ['siteMaster', 'manual'],
      ['auditChangeLog', 'manual'],
    ]);
  });

  it('a retry makes no second file: same keys, same rows, the output says they were made', async () => {
    const machine = await newMachine('allInOne');
    const op = await queued(machine, 'Backup');
    await run(local, 'Backup', op.id, machine);
    const first = await rowsOf(op.id);
    const again = await run(local, 'Backup', op.id, machine);
    expect(await rowsOf(op.id)).toEqual(first);
    expect(await local.list(`backups/${machine.accountId}/${machine.id}/`)).toHaveLength(3);
    expect(again.output.filter((l) => l.includes('was already made'))).toHaveLength(3);
    // A fenced-out attempt inserting the same row late gets the one that is there.
    const { id, ...late } = first[0]!;
    expect((await insertBackupFile(database.db, late)).id).toBe(id);
    expect(await rowsOf(op.id)).toEqual(first);
  });

  it('a worker that died between writing an object and its row leaves, after the retry, one file per software and no stray object', async () => {
    const machine = await newMachine('allInOne');
    const op = await queued(machine, 'Backup', { category: 'weekly' });
    // The first attempt writes the launcher object, then "dies" before its row.
    let puts = 0;
    const dying: ObjectStore = {
      ...local,
      put: async (key, body, opts) => {
        await local.put(key, body, opts);
        puts += 1;
        throw new Error('worker killed');
      },
    };
    await expect(run(dying, 'Backup', op.id, machine)).rejects.toThrow('worker killed');
    expect(puts).toBe(1);
    expect(await rowsOf(op.id)).toEqual([]);
    const [orphan] = await local.list(`backups/${machine.accountId}/${machine.id}/`);
    const orphanBytes = await local.get(orphan!.key);

    await run(local, 'Backup', op.id, machine);
    const rows = await rowsOf(op.id);
    expect(rows.map((r) => r.softwareName)).toEqual(['launcher', 'siteMaster', 'auditChangeLog']);
    const objects = await local.list(`backups/${machine.accountId}/${machine.id}/`);
    expect(objects.map((o) => o.key).sort()).toEqual(rows.map((r) => r.objectKey).sort());
    // The retry rewrote the same bytes under the same key: the checkpointed time and the operation's seed.
    expect(rows[0]!.objectKey).toBe(orphan!.key);
    expect(Buffer.from(await local.get(orphan!.key)).equals(orphanBytes)).toBe(true);
  });

  it('fails clearly on a machine with no software and on an unknown category', async () => {
    const none = await newMachine('neither');
    expect(await failure(local, 'Backup', (await queued(none, 'Backup')).id, none)).toMatch(/runs neither a launcher nor a site master/);
    const machine = await newMachine('launcher');
    expect(await failure(local, 'Backup', (await queued(machine, 'Backup', { category: 'hourly' })).id, machine)).toBe(
      "Unknown backup category 'hourly' (manual, daily, weekly or monthly)",
    );
  });
});

describe('RestoreBackup', () => {
  let machine: EffectMachine;
  let files: (typeof backupFiles.$inferSelect)[];
  beforeAll(async () => {
    machine = await newMachine('allInOne');
    const op = await queued(machine, 'Backup');
    await run(local, 'Backup', op.id, machine);
    files = await rowsOf(op.id);
  });
  const restore = async (params: Record<string, unknown>, on = machine) => failure(local, 'RestoreBackup', (await queued(on, 'RestoreBackup', params)).id, on);

  it('fails when no file is chosen, or a chosen file does not exist', async () => {
    expect(await restore({ launcherBackupFile: null, siteMasterBackupFile: '' })).toBe('No backup file was chosen to restore');
    expect(await restore({ launcherBackupFile: 'nothing.sql.gz' })).toBe('Backup file nothing.sql.gz does not exist');
  });

  it("fails on another account's file, and restores nothing of a choice with one bad file", async () => {
    const stranger = await newMachine('allInOne');
    const own = await queued(stranger, 'Backup');
    await run(local, 'Backup', own.id, stranger);
    const [, ownSiteMaster] = await rowsOf(own.id);
    // Its own site master file is fine, the launcher file is not: nothing is restored.
    const op = await queued(stranger, 'RestoreBackup', { siteMasterBackupFile: ownSiteMaster!.name, launcherBackupFile: files[0]!.name });
    const c = contextFor(await reread(op.id), stranger);
    await expect(createStorageEffects({ store: local }).RestoreBackup!(c.ctx)).rejects.toThrow(`Backup file ${files[0]!.name} belongs to another account`);
    expect(c.output.filter((l) => l.startsWith('Restor'))).toEqual([]);
  });

  it('fails on a file of another software, or a software the machine does not run', async () => {
    expect(await restore({ launcherBackupFile: files[1]!.name })).toBe(`Backup file ${files[1]!.name} is a site master backup, not a launcher one`);
    const launcherOnly = await newMachine('launcher', machine.accountId);
    expect(await restore({ siteMasterBackupFile: files[1]!.name }, launcherOnly)).toBe(
      `Machine ${launcherOnly.name} has no site master to restore ${files[1]!.name} into`,
    );
  });

  it('fails on a file in Glacier, saying it must be restored from Glacier first', async () => {
    const op = await queued(machine, 'Backup');
    await run(local, 'Backup', op.id, machine);
    const [launcherFile] = await rowsOf(op.id);
    await local.setStorageClass(launcherFile!.objectKey, 'Glacier');
    await database.db.update(backupFiles).set({ storageClass: 'Glacier' }).where(eq(backupFiles.id, launcherFile!.id));
    expect(await restore({ launcherBackupFile: launcherFile!.name })).toBe(`Backup file ${launcherFile!.name} is in Glacier: it must be restored from Glacier first`);
    // The store says so too when the row has not caught up.
    await database.db.update(backupFiles).set({ storageClass: 'Standard' }).where(eq(backupFiles.id, launcherFile!.id));
    expect(await restore({ launcherBackupFile: launcherFile!.name })).toBe(`Backup file ${launcherFile!.name} is in Glacier: it must be restored from Glacier first`);
  });

  it('fails when the object is missing from the store, or damaged', async () => {
    const op = await queued(machine, 'Backup');
    await run(local, 'Backup', op.id, machine);
    const [launcherFile, siteFile] = await rowsOf(op.id);
    await local.delete(launcherFile!.objectKey);
    expect(await restore({ launcherBackupFile: launcherFile!.name })).toBe(`Backup file ${launcherFile!.name} is missing from the object store`);
    await local.put(siteFile!.objectKey, new TextEncoder().encode('not a dump'));
    expect(await restore({ siteMasterBackupFile: siteFile!.name })).toMatch(new RegExp(`^Backup file ${siteFile!.name} is damaged: not a gzip file`));
  });
});

describe('PublishSampleData', () => {
  const byName = (name: string) => database.db.select().from(sampleDataFiles).where(eq(sampleDataFiles.name, name));

  it('publishes the site master data as a sample data file, once however often it runs', async () => {
    const machine = await newMachine('siteMaster');
    const op = await queued(machine, 'PublishSampleData', { fileName: 'Campus demo v2.zip' });
    const { output } = await run(local, 'PublishSampleData', op.id, machine);
    const [row] = await byName('Campus demo v2.zip');
    expect(row).toMatchObject({ sourceMachineId: machine.id, publishedBy: 'operator', operationId: op.id, objectKey: `sample-data/op-${op.id}/Campus-demo-v2.zip` });
    expect((await local.head(row!.objectKey))?.size).toBe(row!.size);
    expect(output.at(-1)).toMatch(/^Published sample data file Campus demo v2\.zip \(\d+\.\d KB\)$/);

    const again = await run(local, 'PublishSampleData', op.id, machine);
    expect(again.output).toEqual([expect.stringMatching(/was already published/)]);
    expect(await byName('Campus demo v2.zip')).toHaveLength(1);
  });

  it('refuses a name another file has, leaving no object behind; refuses a machine without a site master', async () => {
    const machine = await newMachine('siteMaster');
    await run(local, 'PublishSampleData', (await queued(machine, 'PublishSampleData', { fileName: 'taken.zip' })).id, machine);
    const second = await queued(machine, 'PublishSampleData', { fileName: 'taken.zip' });
    expect(await failure(local, 'PublishSampleData', second.id, machine)).toBe('A sample data file named taken.zip already exists');
    expect(await local.list(`sample-data/op-${second.id}/`)).toEqual([]);

    const launcher = await newMachine('launcher');
    expect(await failure(local, 'PublishSampleData', (await queued(launcher, 'PublishSampleData', { fileName: 'x.zip' })).id, launcher)).toMatch(
      /has no site master data to publish/,
    );
    expect(await failure(local, 'PublishSampleData', (await queued(machine, 'PublishSampleData', {})).id, machine)).toBe('No sample data file name was given');
  });
});
