/**
 * The visibility of a row's machine as a per-row test (DESIGN §5: Customer
 * Production hidden without group CustomerProductionAccess), for the viewers'
 * pages, which walk an index in their order and stop after the page.
 *
 * The lists are named prepared statements (db/prepared.ts) whose `offset` and
 * `limit` are parameters. The generic plan cannot see their values and
 * assumes a tenth of the rows is wanted: with the machine and account joined,
 * it then preferred joining every row (hash joins over 100,000 machines) and
 * sorting, over walking the index to the page (68 ms instead of 0.1 ms for the
 * first page of the cloud instances with a class hidden). A scalar subquery is
 * never turned into a join, so the walk stays a walk: each row in turn, its
 * machine (`machines_live_idx`) and account looked up, until the page is full.
 */
import { and, sql, type SQL } from 'drizzle-orm';

/**
 * SQL boolean: the machine `machineId` (a column of the outer row) is visible,
 * i.e. it and its account exist and, with `live`, are not deleted, and
 * neither's class is one of `hiddenClassIds` (one array parameter, so the
 * statement's text does not change with the list). Without hidden classes and
 * without `live` it is `true` (every row has its machine and account).
 */
export function machineVisible(machineId: SQL, o: { hiddenClassIds: number[]; live: boolean }): SQL {
  const hidden = o.hiddenClassIds.length > 0;
  if (!hidden && !o.live) return sql`true`;
  const h = sql.param(o.hiddenClassIds);
  const conditions = [
    o.live ? sql`m.deleted_at is null and a.deleted_at is null` : undefined,
    hidden ? sql`m.class_id <> all(${h}::int[]) and a.class_id <> all(${h}::int[])` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  return sql`coalesce((select ${sql.join(conditions, sql` and `)} from machines m join accounts a on a.id = m.account_id
    where m.id = ${machineId}${o.live ? sql` and m.deleted_at is null` : sql``}), false)`;
}

/**
 * SQL boolean: the machine `m` joined to the row is visible (live, of no hidden
 * class) and so is its account, which is looked up per row (a scalar subquery,
 * as in {@link machineVisible}). For pages filtered by the machine's class: with
 * the class a join (`m.class_id = …`), the generic plan estimates it from the
 * column's statistics (a sixth of the rows) and walks the page's index, where a
 * class subquery, taken for 0.5 % of the rows, made it sort every match.
 */
export function joinedMachineVisible(hiddenClassIds: number[]): SQL {
  const hidden = sql.param(hiddenClassIds);
  return hiddenClassIds.length > 0
    ? sql`m.deleted_at is null and m.class_id <> all(${hidden}::int[])
      and coalesce((select a.deleted_at is null and a.class_id <> all(${hidden}::int[]) from accounts a where a.id = m.account_id), false)`
    : sql`m.deleted_at is null and coalesce((select a.deleted_at is null from accounts a where a.id = m.account_id), false)`;
}

/**
 * SQL boolean: the machine `m` and its account `a`, both joined to the row, are
 * live and of no hidden class (one array parameter, so the statement's text
 * stays): for the counts, which read every match anyway.
 */
export function joinedMachineAndAccountVisible(hiddenClassIds: number[]): SQL {
  const hidden = sql.param(hiddenClassIds);
  return and(
    sql`m.deleted_at is null and a.deleted_at is null`,
    hiddenClassIds.length > 0 ? sql`m.class_id <> all(${hidden}::int[])` : undefined,
    hiddenClassIds.length > 0 ? sql`a.class_id <> all(${hidden}::int[])` : undefined,
  )!;
}

/**
 * SQL boolean: `classColumn` (a machine's class) is `classId`; `false` when that
 * class is hidden from the user, so that a viewer filtered to a class the user
 * may not see answers at once instead of walking every row to find none
 * (250 ms for the cloud instances on the scale fleet).
 */
export function classIs(classColumn: SQL, classId: number, hiddenClassIds: number[]): SQL {
  return hiddenClassIds.includes(classId) ? sql`false` : sql`${classColumn} = ${classId}::int`;
}
