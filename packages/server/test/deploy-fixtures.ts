/**
 * Demo-fleet lookups of the deploy tests (desired state, DESIGN §12; Update
 * Software, spec 3 §2.8): seeded accounts whose machines are all up to date,
 * one each call, and a branch's commits.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';

/**
 * A finder of seeded accounts with at least two machines, all managed, live
 * and up to date (none obsolete), with their machine ids in id order: each call
 * answers another one, of `classId` (default: any class but Customer Production
 * and add-ons). Throws when the demo seed has none left. `db` is read at each call.
 */
export function freshAccounts(db: () => Db): (classId?: number) => Promise<{ id: number; machineIds: number[] }> {
  const used = new Set<number>();
  return async (classId) => {
    const { rows } = await db().execute<{ id: number; ids: number[] }>(sql`
      select a.id, array_agg(m.id order by m.id) as ids from accounts a join machines m on m.account_id = a.id
      where ${classId === undefined ? sql`a.class_id not in (5, 200)` : sql`a.class_id = ${classId}`} and not a.is_template and a.deleted_at is null
      group by a.id
      having count(*) >= 2 and bool_and(m.managed and not m.terminate and m.deleted_at is null and not m.obsolete)
      order by a.id`);
    const row = rows.find((r) => !used.has(r.id));
    if (!row) throw new Error(`no fresh account${classId === undefined ? '' : ` of class ${classId}`} in the demo seed`);
    used.add(row.id);
    return { id: row.id, machineIds: row.ids };
  };
}

/** The short hashes of the commits of `software` on `branch`, newest first. */
export async function commitsOf(db: Db, software: string, branch: string): Promise<string[]> {
  const { rows } = await db.execute<{ short_hash: string }>(sql`
    select c.short_hash from software_commits c join software_branches b on b.id = c.branch_id
    where c.software = ${software} and b.name = ${branch} order by c.timestamp desc, c.id desc`);
  return rows.map((r) => r.short_hash);
}
