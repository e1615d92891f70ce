/**
 * The one definition of the fleet's machine counts (issue 24 point 4 "Counts
 * that agree"; spec 3 §2.9 top bar, spec 1 §2 accounts list footer, spec 2
 * §2.7 Machines viewer).
 *
 * Scope: **live machines of live accounts**, i.e. `visible([])` of
 * `machines.repository.ts` (machine and account not deleted), of every class
 * for every user: the specification's counters and footer count the fleet
 * (spec 1 §2, spec 3 §2.9), Customer Production included for users without
 * group CustomerProductionAccess. A machine being terminated is live until it
 * is deleted and is counted. Add-on accounts have no machines.
 *
 * - The top bar (`GET /machines/stats`) counts the whole scope, and says how
 *   many of each count are *restricted*: of a class the user cannot open
 *   (machine or account of class Customer Production without the group).
 * - The accounts footer (`GET /accounts/info`) counts the machines of the
 *   listed accounts in the same scope (with every class listed it equals the
 *   top bar; the list's default filter leaves On Premise out).
 * - The Machines viewer (`GET /machines?classId&needsAdmin&turbo&unmanaged`)
 *   lists the machines the user can open, narrowed by the same conditions
 *   ({@link MACHINE_CONDITIONS}), so its total equals the chip that links to
 *   it less the chip's restricted machines.
 */
import { and, sql, type SQL } from 'drizzle-orm';
import { MACHINE_STATUSES, type TMachineStatus, type TMachineStatusCounts } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, machines } from '../../db/schema.js';
import { visible } from './machines.repository.js';

/** Each machine status (DESIGN §6) as a condition on a `machines` row: what a count or a filter of that status tests. */
export const MACHINE_CONDITIONS = {
  needsAdmin: sql`${machines.needsAdmin}`,
  unmanaged: sql`not ${machines.managed}`,
  manualMaintenance: sql`${machines.manualMaintenance}`,
  stopped: sql`${machines.stop}`,
  turbo: sql`${machines.turbo}`,
  obsolete: sql`${machines.obsolete}`,
  idle: sql`${machines.idle}`,
} as const satisfies Record<TMachineStatus, SQL>;

/** The machine filters of `GET /machines` and the top bar's chips: a class, and statuses that must be true or false. */
export interface MachineFilter {
  classId?: number;
  needsAdmin?: boolean;
  turbo?: boolean;
  unmanaged?: boolean;
}

/**
 * The counts of one class's machines in scope: all, and those of each status;
 * with `restrictedClassIds`, of the restricted or of the other machines of the class.
 */
export type ClassMachineCounts = { classId: number; restricted?: boolean; machines: number } & Record<TMachineStatus, number>;

const STATUS_NAMES = MACHINE_STATUSES;

/**
 * The machines in scope per machine class (rows with machines only), with the
 * number of each status: of the whole fleet, or of the accounts `accountIds`
 * (a subquery of account ids: the accounts list's matching accounts), none of
 * `hiddenClassIds`. With `restrictedClassIds` each class has up to two rows,
 * `restricted` true for the machines the user cannot open (the machine or its
 * account of one of those classes), false for the others.
 * One scan of the live machines of those accounts.
 */
export async function countScopedMachines(
  db: DbOrTx,
  o: { hiddenClassIds: number[]; restrictedClassIds?: number[]; accountIds?: SQL },
): Promise<ClassMachineCounts[]> {
  const statusCounts = sql.join(
    STATUS_NAMES.map((name) => sql`count(*) filter (where ${MACHINE_CONDITIONS[name]})::int as ${sql.identifier(name)}`),
    sql`, `,
  );
  const restrictedIds = sql.param(o.restrictedClassIds ?? []);
  const restricted = o.restrictedClassIds
    ? sql`(${machines.classId} = any(${restrictedIds}::int[]) or ${accounts.classId} = any(${restrictedIds}::int[]))`
    : sql`false`;
  const { rows } = await db.execute<ClassMachineCounts>(sql`
    select ${machines.classId} as "classId", ${restricted} as restricted, count(*)::int as machines, ${statusCounts}
    from ${machines} join ${accounts} on ${accounts.id} = ${machines.accountId}
    where ${and(visible(o.hiddenClassIds), o.accountIds ? sql`${machines.accountId} in (${o.accountIds})` : undefined)}
    group by 1, 2`);
  return rows;
}

/** The sum of the counts of every class. */
export function sumCounts(rows: ClassMachineCounts[]): TMachineStatusCounts {
  const total = { machines: 0, ...Object.fromEntries(STATUS_NAMES.map((n) => [n, 0])) } as TMachineStatusCounts;
  for (const row of rows) {
    total.machines += row.machines;
    for (const n of STATUS_NAMES) total[n] += row[n];
  }
  return total;
}
