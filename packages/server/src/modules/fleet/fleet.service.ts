/**
 * Fleet counters of the top bar and the catalogue reads the accounts list needs
 * (spec 3 §2.9, §7 Fleet counters; GET /mma/classes).
 * The machine counts are those of `machines/fleet-counts.ts`: live machines of
 * live accounts of every class, for every user (spec 3 §2.9), with the part of
 * each a user without group CustomerProductionAccess cannot open (`restricted`).
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
import { accounts, machines, mmaClasses, mmaInstances } from '../../db/schema.js';
import { countScopedMachines, sumCounts } from '../machines/fleet-counts.js';
import { visible } from '../machines/machines.repository.js';

/** A class and its instance (if any) as the API answers them (spec 3 §3 MMA class), with its change windows (issue 25 point 5). */
export function mmaClassJson(c: typeof mmaClasses.$inferSelect, i: typeof mmaInstances.$inferSelect | null): TMmaClass {
  return {
    id: c.id,
    name: c.name,
    image: c.image,
    isProduction: c.isProduction,
    mmaInstance: i && mmaInstanceJson(i),
    changeWindows: c.changeWindows,
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
    mode: i.mode,
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
      // The counts of the one scope the accounts footer and the Machines viewer share (machines/fleet-counts.ts):
      // every class, the classes the user cannot open told apart.
      const [perClass, costs] = await Promise.all([
        countScopedMachines(db, { hiddenClassIds: [], restrictedClassIds: hidden }),
        db.execute<{ runningCost: number; totalCost: number }>(sql`
          select coalesce(sum(it.cloud_credit_cost) filter (where ci.status = 'running'), 0)::float8 as "runningCost",
            coalesce(sum(it.cloud_credit_cost), 0)::float8 as "totalCost"
          from ${machines} join ${accounts} on ${accounts.id} = ${machines.accountId}
          left join instance_types it on it.id = ${machines.instanceTypeId}
          left join lateral (
            select c.status from cloud_instances c where c.machine_id = ${machines.id} and c.active order by c.id desc limit 1
          ) ci on true
          where ${visible(hidden)}`),
      ]);
      const total = sumCounts(perClass);
      const restricted = sumCounts(perClass.filter((r) => r.restricted));
      const cost = costs.rows[0] ?? { runningCost: 0, totalCost: 0 };
      return {
        needsAdmin: total.needsAdmin,
        turbo: total.turbo,
        unmanaged: total.unmanaged,
        runningCost: Math.round(cost.runningCost * 100) / 100,
        totalCost: Math.round(cost.totalCost * 100) / 100,
        classStats: TOP_BAR_CLASS_IDS.map((id) => ({
          class: { id, name: className(id) },
          total: sumCounts(perClass.filter((r) => r.classId === id)).machines,
          restricted: sumCounts(perClass.filter((r) => r.classId === id && r.restricted)).machines,
        })),
        restricted: { classIds: hidden, needsAdmin: restricted.needsAdmin, turbo: restricted.turbo, unmanaged: restricted.unmanaged },
      };
    },

    async mmaStats() {
      const rows = await db
        .select({ id: mmaInstances.classId })
        .from(mmaInstances)
        .where(eq(mmaInstances.standby, true))
        .orderBy(asc(mmaInstances.classId));
      return { standby: rows.length, standbyClasses: [...new Set(rows.map((r) => r.id))].map((id) => ({ id, name: className(id) })) };
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
