/**
 * The schema index (db/schema.ts, re-exporting every module's `*.schema.ts`)
 * describes exactly the database the checked-in migrations build: drizzle-kit's
 * snapshot of the current schema equals the last migration's snapshot (named by
 * `migrations/meta/_journal.json`), and the migration between them is empty. So
 * moving a table between schema files changes no migration, and a schema change
 * without its generated migration fails here. Every `*.schema.ts` under
 * `modules/` and `engine/` is re-exported by the index, so neither drizzle-kit
 * nor the Drizzle handle misses a table.
 *
 * Known limitations: drizzle-kit snapshots hold tables, columns, indexes,
 * constraints, enums and sequences only; the hand-written SQL of the migrations
 * (triggers, the `probe_samples` partitions) is outside this check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateDrizzleJson, generateMigration, type DrizzleSnapshotJSON } from 'drizzle-kit/api';
import * as schema from './schema.js';

const meta = fileURLToPath(new URL('./migrations/meta/', import.meta.url));
const src = fileURLToPath(new URL('../', import.meta.url));

/** The snapshot written with the last migration of the journal. */
function lastSnapshot(): DrizzleSnapshotJSON {
  const journal = JSON.parse(readFileSync(`${meta}_journal.json`, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.reduce((a, b) => (b.idx > a.idx ? b : a));
  const file = `${meta}${String(last.idx).padStart(4, '0')}_snapshot.json`;
  return JSON.parse(readFileSync(file, 'utf8')) as DrizzleSnapshotJSON;
}

/**
 * A snapshot without its identity (`id`, `prevId`, new at every generation), as
 * the JSON file holds it (no `undefined` fields), so that a failure shows only
 * what differs.
 */
function content(snapshot: DrizzleSnapshotJSON): unknown {
  const { id: _id, prevId: _prevId, ...rest } = snapshot;
  return JSON.parse(JSON.stringify(rest));
}

describe('the schema index', () => {
  const previous = lastSnapshot();
  const current = generateDrizzleJson(schema, previous.id);

  it('holds as many tables as the last migration snapshot', () => {
    expect(Object.keys(current.tables).sort()).toEqual(Object.keys(previous.tables).sort());
    expect(Object.keys(current.tables).length).toBeGreaterThan(50);
  });

  it('generates the last migration snapshot, table for table', () => {
    expect(content(current)).toEqual(content(previous));
  });

  it('needs no new migration', async () => {
    expect(await generateMigration(previous, current)).toEqual([]);
  });

  it('re-exports every schema file of the modules and engine parts', async () => {
    const files = ['modules', 'engine'].flatMap((area) =>
      readdirSync(`${src}${area}`, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.schema.ts'))
        .map((f) => `${area}/${f}`),
    );
    expect(files.length).toBeGreaterThan(20);
    const index: Record<string, unknown> = schema;
    for (const file of files) {
      const exports = Object.entries((await import(`${src}${file}`)) as Record<string, unknown>);
      expect(exports.length, file).toBeGreaterThan(0);
      for (const [name, value] of exports) expect(index[name], `${file}: ${name}`).toBe(value);
    }
  });
});
