/**
 * SQL of the Library Manager (spec 3 §2.6, §7 Library): known urls, inserting
 * synced files, reading and deleting files, and what still uses a file.
 * (The paged list is the catalogues module's `selectLibraryFilesPage`.)
 */
import { asc, inArray, sql } from 'drizzle-orm';
import { LCT_USER, type TLibraryFile } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { libraryFiles } from '../../db/schema.js';

export type LibraryFileRow = typeof libraryFiles.$inferSelect;

/** A row as the API answers it (TLibraryFile). */
export const libraryFileJson = (r: LibraryFileRow): TLibraryFile => ({
  ...r,
  type: r.type as TLibraryFile['type'],
  isLct: r.addedBy === LCT_USER,
  date: r.date.toISOString(),
});

/** Which of `urls` a library file already has. */
export async function selectKnownUrls(db: DbOrTx, urls: string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const rows = await db.select({ url: libraryFiles.url }).from(libraryFiles).where(inArray(libraryFiles.url, urls));
  return new Set(rows.map((r) => r.url));
}

/**
 * Serialises syncs (two operators syncing the same file make one row): a
 * transaction-scoped advisory lock; `tx` must be a transaction.
 */
export async function lockLibrarySync(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('library-sync'))`);
}

export async function insertLibraryFiles(tx: DbOrTx, rows: (typeof libraryFiles.$inferInsert)[]): Promise<LibraryFileRow[]> {
  return tx.insert(libraryFiles).values(rows).returning();
}

/** The files of `ids` that exist, locked until the transaction ends, by id. */
export const selectLibraryFilesForUpdate = (tx: DbOrTx, ids: number[]) =>
  tx.select().from(libraryFiles).where(inArray(libraryFiles.id, ids)).orderBy(asc(libraryFiles.id)).for('update');

export async function deleteLibraryFileRows(tx: DbOrTx, ids: number[]): Promise<void> {
  await tx.delete(libraryFiles).where(inArray(libraryFiles.id, ids));
}

/** One user of a library file: an account's machine config or a SaaS image's jump-start config. */
export type LibraryFileUser = {
  fileId: number;
  kind: 'account' | 'image';
  name: string;
  classId: number | null;
};

/**
 * What still refers to the files of `ids`: live accounts whose machine config
 * lists them (`mainLibraryFiles`, `accountLibraryFiles`) and SaaS images whose
 * jump-start config does (`libraryFiles`).
 */
export async function selectLibraryFileUsers(db: DbOrTx, ids: number[]): Promise<LibraryFileUser[]> {
  if (ids.length === 0) return [];
  const idList = sql.join(ids.map((id) => sql`${String(id)}`), sql`, `);
  const arr = (v: ReturnType<typeof sql>) => sql`(case when jsonb_typeof(${v}) = 'array' then ${v} else '[]'::jsonb end)`;
  const { rows } = await db.execute<LibraryFileUser>(sql`
    select e.v::int as "fileId", 'account' as kind, a.name, a.class_id as "classId"
    from account_settings s
    join accounts a on a.id = s.account_id and a.deleted_at is null
    cross join lateral jsonb_array_elements_text(${arr(sql`s.machine_config->'mainLibraryFiles'`)} || ${arr(sql`s.machine_config->'accountLibraryFiles'`)}) e(v)
    where e.v in (${idList})
    union
    select e.v::int, 'image', i.name, null
    from saas_images i
    cross join lateral jsonb_array_elements_text(${arr(sql`i.jump_start_config->'libraryFiles'`)}) e(v)
    where e.v in (${idList})
    order by 1, 2, 3`);
  return rows;
}
