/**
 * Fleet counters of the top bar and the catalogue reads the accounts list needs
 * (spec 3 §2.9, §7 Fleet counters; GET /mma/classes).
 * Machines of hidden classes are not counted (DESIGN §5).
 */
import { asc, eq, sql } from 'drizzle-orm';
import {
  className,
  TOP_BAR_CLASS_IDS,
  type TMachineStats,
  type TMmaClass,
  type TMmaInstanceState,
  type TMmaStats,
} from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { mmaClasses, mmaInstances } from '../../db/schema.js';

/** A class and its instance (if any) as the API answers them (spec 3 §3 MMA class). */
export function mmaClassJson(c: typeof mmaClasses.$inferSelect, i: typeof mmaInstances.$inferSelect | null): TMmaClass {
  return {
    id: c.id,
    name: c.name,
    image: c.image,
    isProduction: c.isProduction,
    mmaInstance: i && mmaInstanceJson(i),
  };
}

/** The state of an MMA instance as the class list and `GET /mma/instances` answer it. */
export function mmaInstanceJson(i: typeof mmaInstances.$inferSelect): TMmaInstanceState {
  return {
    commitHash: i.commitHash,
    commitTimestamp: i.commitTimestamp.toISOString(),
    deployerVer: i.deployerVer,
    deployerBranch: i.deployerBranch,
    deployerVerUpdatedAt: i.deployerVerUpdatedAt?.toISOString() ?? null,
    standby: i.standby,
    priorityGroup: i.priorityGroup,
    caaHost: i.caaHost,
  };
}

export interface FleetService {
  machineStats(principal: Principal): Promise<TMachineStats>;
  mmaStats(): Promise<TMmaStats>;
  mmaClasses(): Promise<TMmaClass[]>;
}

export function createFleetService({ db }: { db: Db }): FleetService {
  return {
    async machineStats(principal) {
      const hidden = hiddenClassIds(principal);
      // A machine is hidden by its own class or by its account's (as in the machines list).
      const hiddenList = sql.join(hidden.map((id) => sql`${id}`), sql`, `);
      const visible = hidden.length > 0 ? sql`m.class_id not in (${hiddenList}) and a.class_id not in (${hiddenList})` : sql`true`;
      const { rows } = await db.execute<{
        classId: number;
        total: number;
        needsAdmin: number;
        turbo: number;
        unmanaged: number;
        runningCost: number;
        totalCost: number;
      }>(sql`
        select m.class_id as "classId", count(*)::int as total,
          count(*) filter (where m.needs_admin)::int as "needsAdmin",
          count(*) filter (where m.turbo)::int as turbo,
          count(*) filter (where not m.managed)::int as unmanaged,
          coalesce(sum(it.cloud_credit_cost) filter (where ci.status = 'running'), 0)::float8 as "runningCost",
          coalesce(sum(it.cloud_credit_cost), 0)::float8 as "totalCost"
        from machines m
        join accounts a on a.id = m.account_id
        left join instance_types it on it.id = m.instance_type_id
        left join lateral (
          select c.status from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1
        ) ci on true
        where m.deleted_at is null and ${visible}
        group by m.class_id`);
      const sum = (k: 'needsAdmin' | 'turbo' | 'unmanaged' | 'runningCost' | 'totalCost') =>
        rows.reduce((acc, r) => acc + r[k], 0);
      return {
        needsAdmin: sum('needsAdmin'),
        turbo: sum('turbo'),
        unmanaged: sum('unmanaged'),
        runningCost: Math.round(sum('runningCost') * 100) / 100,
        totalCost: Math.round(sum('totalCost') * 100) / 100,
        classStats: TOP_BAR_CLASS_IDS.filter((id) => !hidden.includes(id)).map((id) => ({
          class: { id, name: className(id) },
          total: rows.find((r) => r.classId === id)?.total ?? 0,
        })),
      };
    },

    async mmaStats() {
      const [row] = await db
        .select({ standby: sql<number>`count(*)::int` })
        .from(mmaInstances)
        .where(eq(mmaInstances.standby, true));
      return { standby: row?.standby ?? 0 };
    },

    async mmaClasses() {
      const rows = await db
        .select({ c: mmaClasses, i: mmaInstances })
        .from(mmaClasses)
        .leftJoin(mmaInstances, eq(mmaInstances.classId, mmaClasses.id))
        .orderBy(asc(mmaClasses.id));
      return rows.map(({ c, i }) => mmaClassJson(c, i));
    },
  };
}
