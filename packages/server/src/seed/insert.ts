/**
 * Bulk inserts for the seed: rows are sent in multi-row INSERT statements sized so
 * that rows × columns stays under PostgreSQL's 65,535 bind parameters.
 */
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';

const MAX_PARAMETERS = 60_000;

/**
 * Inserts `rows` into `table` in batches of at most `maxRows` rows (default 2,000)
 * and never more than 60,000 bind parameters per statement.
 */
export async function insertMany<T extends PgTable>(
  db: DbOrTx,
  table: T,
  rows: PgInsertValue<T>[],
  maxRows = 2_000,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(getTableColumns(table)).length;
  const size = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMETERS / columns)));
  for (let i = 0; i < rows.length; i += size) {
    await db.insert(table).values(rows.slice(i, i + size));
  }
}

/** The largest id in `tableName` (0 when empty): seeded rows with explicit ids start after it. */
export async function maxId(db: DbOrTx, tableName: string): Promise<number> {
  const { rows } = await db.execute<{ max: number }>(sql`select coalesce(max(id), 0)::int as max from ${sql.identifier(tableName)}`);
  return rows[0]?.max ?? 0;
}

/** Moves the serial sequence of `tableName` past the largest id, after rows were inserted with explicit ids. */
export async function syncSequence(db: DbOrTx, tableName: string): Promise<void> {
  await db.execute(
    sql`select setval(pg_get_serial_sequence(${tableName}, 'id'), (select coalesce(max(id), 0) + 1 from ${sql.identifier(tableName)}), false)`,
  );
}

/**
 * Inserts `rows` as one JSON document per batch (`jsonb_populate_recordset`): one
 * bind parameter per statement, several times faster than multi-row VALUES for
 * the scale fleet. The columns are the keys set in any row; a row that lacks one
 * of them writes NULL there, not the column default, so rows should set the same keys.
 */
export async function insertManyAsJson<T extends PgTable>(
  db: DbOrTx,
  table: T,
  rows: PgInsertValue<T>[],
  batchRows = 5_000,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const present = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) present.add(key);
  const keys = [...present].filter((k) => k in columns);
  const names = keys.map((k) => columns[k]?.name ?? k);
  const list = sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );
  for (let i = 0; i < rows.length; i += batchRows) {
    const json = JSON.stringify(
      rows.slice(i, i + batchRows).map((row) => {
        const values = row as Record<string, unknown>;
        return Object.fromEntries(keys.map((k, j) => [names[j], values[k] ?? null]));
      }),
    );
    await db.execute(sql`insert into ${table} (${list}) select ${list} from jsonb_populate_recordset(null::${table}, ${json}::jsonb)`);
  }
}
