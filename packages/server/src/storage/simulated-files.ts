/**
 * The contents of simulated backup and sample data files (DESIGN §13): small but
 * realistic database dumps (gzip-compressed SQL, a few KB to a few hundred KB)
 * and sample data archives (zip), from a seeded generator, so the same seed
 * always gives the same bytes (a retried Backup rewrites an identical object).
 * {@link readDump} checks a dump the way a restore would.
 *
 * A dump is made off the event loop's long path: its rows are written a few
 * hundred at a time with a turn of the event loop between, and it is compressed by
 * node:zlib on libuv's thread pool. Made with fflate's `gzipSync` in one go, a
 * Backup held the API's event loop 5 to 21 ms a dump, and the scale fleet's
 * scheduled backups kept the server's main thread 75 % busy with them
 * (`bench/fleet`, 2026-11-30: every viewer's page 250 ms at one client).
 */
import { promisify } from 'node:util';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { gzip } from 'node:zlib';
import { gunzipSync, strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { TBackupSoftware } from '@fleet/contracts';
import { Rng } from '../seed/random.js';

/** Tables of each software's database and the rows each gets, inclusive range. */
const TABLES: Record<TBackupSoftware, { name: string; columns: string[]; rows: [number, number] }[]> = {
  launcher: [
    { name: 'users', columns: ['id', 'user_name', 'email', 'last_login'], rows: [20, 120] },
    { name: 'sessions', columns: ['id', 'user_id', 'token_hash', 'expires_at'], rows: [50, 300] },
    { name: 'licenses', columns: ['id', 'feature', 'seats', 'expires_at'], rows: [5, 30] },
    { name: 'sites', columns: ['id', 'name', 'url', 'created_at'], rows: [1, 12] },
    { name: 'settings', columns: ['key', 'value', 'updated_at', 'updated_by'], rows: [30, 80] },
  ],
  siteMaster: [
    { name: 'buildings', columns: ['id', 'name', 'address', 'created_at'], rows: [3, 20] },
    { name: 'rooms', columns: ['id', 'building_id', 'name', 'floor'], rows: [40, 200] },
    { name: 'racks', columns: ['id', 'room_id', 'name', 'units'], rows: [100, 600] },
    { name: 'devices', columns: ['id', 'rack_id', 'model', 'serial'], rows: [300, 1500] },
    { name: 'ports', columns: ['id', 'device_id', 'label', 'media'], rows: [600, 2500] },
    { name: 'cables', columns: ['id', 'a_port', 'b_port', 'length_m'], rows: [400, 2000] },
  ],
  auditChangeLog: [
    { name: 'change_sets', columns: ['id', 'user_name', 'committed_at', 'comment'], rows: [100, 600] },
    { name: 'changes', columns: ['id', 'change_set_id', 'entity', 'old_value'], rows: [500, 3000] },
  ],
};

const WORDS = ['alpha', 'bravo', 'core', 'edge', 'fiber', 'north', 'south', 'east', 'west', 'patch', 'uplink', 'spine', 'leaf', 'panel', 'tray'];

function cell(rng: Rng, column: string, row: number, at: Date): string {
  if (column === 'id') return String(row + 1);
  if (column.endsWith('_id') || column.endsWith('_port') || column === 'seats' || column === 'units' || column === 'floor') return String(rng.int(1, 999));
  if (column.endsWith('_at') || column === 'last_login') return `'${new Date(at.getTime() - rng.int(0, 400 * 86_400) * 1000).toISOString()}'`;
  if (column.endsWith('_hash') || column === 'serial') return `'${rng.hex(column === 'serial' ? 12 : 40)}'`;
  if (column === 'length_m') return (rng.int(5, 9000) / 10).toFixed(1);
  return `'${rng.pick(WORDS)}-${rng.pick(WORDS)}-${rng.int(1, 99)}'`;
}

/** Header of a simulated dump: what {@link readDump} reads back. */
export interface DumpHeader {
  software: TBackupSoftware;
  machine: string;
  createdAt: string;
  tables: number;
  rows: number;
}

const gzipAsync = promisify(gzip);
/** Rows of a dump written in one turn of the event loop (about half a millisecond). */
const ROWS_PER_TURN = 250;

/**
 * A gzip-compressed SQL dump of `software`'s database on `machine`, the same
 * bytes for the same arguments (zlib's gzip header carries no time). `seed`
 * picks the row counts and values. The rows are written {@link ROWS_PER_TURN} a
 * turn of the event loop and the compression runs on the thread pool (module
 * docstring).
 */
export async function simulatedDump(o: { software: TBackupSoftware; machine: string; createdAt: Date; seed: number }): Promise<{ bytes: Uint8Array; header: DumpHeader }> {
  const rng = new Rng(o.seed);
  const tables = TABLES[o.software];
  const counts = tables.map((t) => rng.int(t.rows[0], t.rows[1]));
  const header: DumpHeader = { software: o.software, machine: o.machine, createdAt: o.createdAt.toISOString(), tables: tables.length, rows: counts.reduce((a, b) => a + b, 0) };
  const lines = [`-- Fleet simulated dump ${JSON.stringify(header)}`, `-- PostgreSQL database dump`, `SET client_encoding = 'UTF8';`, ''];
  for (const [i, table] of tables.entries()) {
    lines.push(`CREATE TABLE ${table.name} (${table.columns.map((c) => `${c} text`).join(', ')});`);
    lines.push(`COPY ${table.name} (${table.columns.join(', ')}) FROM stdin;`);
    for (let r = 0; r < counts[i]!; r++) {
      if (r % ROWS_PER_TURN === 0) await nextTurn();
      lines.push(table.columns.map((c) => cell(rng, c, r, o.createdAt)).join('\t'));
    }
    lines.push('\\.', '');
  }
  lines.push('-- PostgreSQL database dump complete', '');
  const compressed = await gzipAsync(Buffer.from(lines.join('\n')), { level: 6 });
  return { bytes: new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.length), header };
}

/** A dump that cannot be restored (not gzip, not a simulated dump, cut short). */
export class DamagedFileError extends Error {}

/** Reads a dump's header and checks that it is whole; throws {@link DamagedFileError} otherwise. */
export function readDump(bytes: Uint8Array): DumpHeader {
  let text: string;
  try {
    text = strFromU8(gunzipSync(bytes));
  } catch (err) {
    throw new DamagedFileError(`not a gzip file (${(err as Error).message})`);
  }
  const match = /^-- Fleet simulated dump (\{.*\})\n/.exec(text);
  if (!match) throw new DamagedFileError('not a database dump');
  if (!text.trimEnd().endsWith('-- PostgreSQL database dump complete')) throw new DamagedFileError('the dump is cut short');
  return JSON.parse(match[1]!) as DumpHeader;
}

/**
 * A sample data archive (zip) of site master data: a manifest and a few CSV
 * files, the same bytes for the same arguments.
 */
export function simulatedSampleData(o: { name: string; source: string; createdAt: Date; seed: number }): Uint8Array {
  const rng = new Rng(o.seed);
  const csv = (columns: string[], rows: number) =>
    strToU8([columns.join(','), ...Array.from({ length: rows }, (_, r) => columns.map((c) => cell(rng, c, r, o.createdAt).replaceAll("'", '')).join(','))].join('\n'));
  const mtime = new Date('2026-01-01T00:00:00Z');
  return zipSync(
    {
      'manifest.json': strToU8(JSON.stringify({ name: o.name, source: o.source, createdAt: o.createdAt.toISOString(), format: 'site-master-sample/1' }, null, 2)),
      'buildings.csv': csv(['id', 'name', 'address'], rng.int(2, 8)),
      'racks.csv': csv(['id', 'room_id', 'name', 'units'], rng.int(40, 200)),
      'devices.csv': csv(['id', 'rack_id', 'model', 'serial'], rng.int(150, 600)),
      'cables.csv': csv(['id', 'a_port', 'b_port', 'length_m'], rng.int(200, 900)),
    },
    { level: 6, mtime },
  );
}

/** The manifest of a sample data archive; throws {@link DamagedFileError} when it is not one. */
export function readSampleData(bytes: Uint8Array): { name: string; source: string; files: string[] } {
  try {
    const files = unzipSync(bytes);
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as { name: string; source: string };
    return { ...manifest, files: Object.keys(files).sort() };
  } catch (err) {
    throw new DamagedFileError(`not a sample data archive (${(err as Error).message})`);
  }
}

/** A size for an output line: `812 B`, `14.2 KB`, `3.1 MB` (1 KB = 1024 bytes). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A 32-bit seed from an operation id and a label (FNV-1a), for {@link simulatedDump} and {@link simulatedSampleData}. */
export function seedOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
