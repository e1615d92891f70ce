/**
 * The seeded stored files (DESIGN §4, §13): every row has its object, of its
 * size; the demo gets backups of every category, some in Glacier, in visible
 * and Customer Production accounts; the scale fleet gets none; seeding is
 * deterministic. Its time is printed, not asserted: a timed test fails on a
 * loaded runner (15.1 s against a 15 s bound once) and measures nothing the
 * start-up does not show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION } from '@fleet/contracts';
import { accounts, backupFiles, sampleDataFiles } from '../db/schema.js';
import { openTestDatabase, type OpenedTestDatabase } from '../../test/harness.js';
import { createLocalObjectStore } from '../storage/local-store.js';
import { readDump } from '../storage/simulated-files.js';
import { seedStoredFiles } from './stored-files.js';
import { DEFAULT_SAMPLE_DATA_FILES } from './settings.js';

const dbs: OpenedTestDatabase[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const d of dbs) await d.dispose();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

async function fresh() {
  const database = await openTestDatabase({ max: 2 });
  dbs.push(database);
  const root = await mkdtemp(join(tmpdir(), 'fleet-seed-objects-'));
  folders.push(root);
  return { db: database.db, store: createLocalObjectStore({ root }) };
}

describe('seedStoredFiles', () => {
  let demo: Awaited<ReturnType<typeof fresh>>;
  let ms: number;
  beforeAll(async () => {
    demo = await fresh();
    const started = Date.now();
    await seedStoredFiles(demo.db, demo.store, 'demo');
    ms = Date.now() - started;
    console.info(`demo stored files seeded in ${ms} ms`);
  });

  it('writes the default sample data files and demo backups, each row with its object of its size', async () => {
    const samples = await demo.db.select().from(sampleDataFiles);
    expect(samples.map((s) => s.name).sort()).toEqual([...DEFAULT_SAMPLE_DATA_FILES]);
    const rows = await demo.db.select({ b: backupFiles, classId: accounts.classId }).from(backupFiles).innerJoin(accounts, eq(accounts.id, backupFiles.accountId));
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.length).toBeLessThan(400);
    for (const { b } of [...rows.map((r) => ({ b: r.b })), ...samples.map((s) => ({ b: s }))]) {
      expect((await demo.store.head(b.objectKey))?.size, b.objectKey).toBe(b.size);
    }
    expect(new Set(rows.map((r) => r.b.category))).toEqual(new Set(['daily', 'weekly', 'monthly']));
    expect(new Set(rows.map((r) => r.b.softwareName))).toEqual(new Set(['launcher', 'siteMaster', 'auditChangeLog']));
    expect(rows.filter((r) => r.b.storageClass === 'Glacier').every((r) => r.b.category === 'monthly')).toBe(true);
    expect((await demo.store.head(rows.find((r) => r.b.storageClass === 'Glacier')!.b.objectKey))?.storageClass).toBe('Glacier');
    expect(rows.some((r) => r.classId === CLASS_CUSTOMER_PRODUCTION)).toBe(true);
    expect(rows.some((r) => r.classId !== CLASS_CUSTOMER_PRODUCTION)).toBe(true);
    const standard = rows.find((r) => r.b.storageClass === 'Standard')!.b;
    expect(readDump(await demo.store.get(standard.objectKey)).software).toBe(standard.softwareName);
  });

  it('gives the same rows and bytes on another run', async () => {
    const again = await fresh();
    await seedStoredFiles(again.db, again.store, 'demo');
    const strip = (r: typeof backupFiles.$inferSelect) => ({ ...r, id: 0 });
    const [a, b] = await Promise.all([demo.db.select().from(backupFiles).orderBy(backupFiles.name), again.db.select().from(backupFiles).orderBy(backupFiles.name)]);
    expect(b.map(strip)).toEqual(a.map(strip));
    const readable = a.find((r) => r.storageClass === 'Standard')!;
    expect(Buffer.from(await again.store.get(readable.objectKey)).equals(await demo.store.get(readable.objectKey))).toBe(true);
  });

  it('writes no backup for the scale fleet, only the default sample data files', async () => {
    const scale = await fresh();
    expect(await seedStoredFiles(scale.db, scale.store, 'scale')).toEqual({ objects: DEFAULT_SAMPLE_DATA_FILES.length });
    expect(await scale.db.select().from(backupFiles)).toEqual([]);
    expect((await scale.store.list('')).map((o) => o.key)).toEqual(DEFAULT_SAMPLE_DATA_FILES.map((n) => `sample-data/default/${n}`));
  });
});
