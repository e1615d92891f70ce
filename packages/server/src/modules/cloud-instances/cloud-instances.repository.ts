/**
 * SQL of the Cloud Instances viewer (spec 2 §2.9, §3 Cloud instance, §7
 * `GET /cloud-instance`, `GET /machines/{id}/cloud-instances`): pages of the
 * instances of visible live machines, newest (highest id) first.
 *
 * Visibility (DESIGN §5) is part of the query: the instance's machine and its
 * account are live and of no hidden class. Instances without a machine (none
 * today) are not listed.
 */
import { and, notInArray, sql, type SQL } from 'drizzle-orm';
import { className, type TCloudInstance } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { isoTime } from '../../db/sql-json.js';

/** `m` (the instance's machine) and `a` (its account) are live and of no hidden class. */
function visible(hiddenClassIds: number[]): SQL {
  return and(
    sql`m.deleted_at is null and a.deleted_at is null`,
    hiddenClassIds.length > 0 ? notInArray(sql`m.class_id`, hiddenClassIds) : undefined,
    hiddenClassIds.length > 0 ? notInArray(sql`a.class_id`, hiddenClassIds) : undefined,
  )!;
}

/** The instance's state now: a transition whose time has come counts as done (the simulated cloud settles on read). */
const statusNow = sql`case when c.next_status is not null and c.settles_at <= now() then c.next_status else c.status end`;

/**
 * A page of the instances of visible machines (or of one machine), newest
 * first, with the total counted at most `cap` rows. The page walks the primary
 * key (or `cloud_instances_machine_id_idx` for one machine) backwards and stops
 * after the page; the total is counted on the same ordered plan.
 */
export async function selectCloudInstancePage(
  db: DbOrTx,
  q: { hiddenClassIds: number[]; machineId?: number; startIndex: number; limit: number; cap: number },
): Promise<{ items: TCloudInstance[]; totalItems: number }> {
  const ids = sql`select c.id from cloud_instances c join machines m on m.id = c.machine_id join accounts a on a.id = m.account_id
    where ${visible(q.hiddenClassIds)} ${q.machineId !== undefined ? sql`and c.machine_id = ${q.machineId}` : sql``}
    order by c.id desc`;
  const [page, counted] = await Promise.all([
    db.execute<Omit<TCloudInstance, 'machineClassName'> & { classId: number }>(sql`
      select c.id, c.machine_id as "machineId", m.name as "machineName", m.class_id as "classId",
        c.host_name as "hostName", c.ip_address as "ipAddress", c.private_ip_address as "privateIpAddress",
        c.cloud_id as "cloudId", c.region, c.storage_size as "storageSize",
        ${isoTime(sql`c.created_at`)} as "timestamp", ${isoTime(sql`c.updated_at`)} as "updatedAt",
        ${statusNow} as status, c.active, c.dns_ready as "dnsReady"
      from (${ids} offset ${q.startIndex} limit ${q.limit}) p
      join cloud_instances c on c.id = p.id join machines m on m.id = c.machine_id
      order by c.id desc`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from (${ids} limit ${q.cap}) x`),
  ]);
  return {
    items: page.rows.map(({ classId, ...row }) => ({ ...row, machineClassName: className(classId) })),
    totalItems: counted.rows[0]?.n ?? 0,
  };
}
