/**
 * SQL of the MMA protocol (issue 27 point 2; `mma-protocol.service.ts`): the
 * machines of a claim as an MMA needs them, the lengths of a claimed
 * operation's logs, a lease as the protocol checks it, the renewal of an
 * MMA's leases and the append of log text at an offset. Every write is fenced
 * by the lease (`status = 'RUNNING'`, the attempt, the MMA as its worker).
 * Offsets and lengths count characters (Unicode code points, PostgreSQL's
 * `char_length`).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { TSiteServerStatus } from '@fleet/contracts';
import { operations } from '../../db/schema.js';
import { isoTime } from '../../db/sql-json.js';
import { unwrittenPart } from '../../engine/operations/agent.repository.js';

/** A machine of a claim: what the MMA is told, and its desired versions (an UpdateSoftware's target when it names none). */
export type ClaimMachine = {
  id: number;
  name: string;
  accountId: number;
  /** The active instance's host name, or null. */
  hostName: string | null;
  /** The active instance's cloud id, or null. */
  cloudId: string | null;
  isLauncher: boolean;
  isSiteMaster: boolean;
  sampleData: string;
  sampleDataFile: string | null;
  desiredVersions: Record<string, string>;
  installedVersions: Record<string, string>;
};

/** The machines `ids` by id. */
export async function selectClaimMachines(db: DbOrTx, ids: number[]): Promise<Map<number, ClaimMachine>> {
  const { rows } = await db.execute<ClaimMachine>(sql`
    select m.id, m.name, m.account_id as "accountId", m.desired_versions as "desiredVersions", m.current_versions as "installedVersions",
      m.is_launcher as "isLauncher", m.is_site_master as "isSiteMaster", m.sample_data as "sampleData", m.sample_data_file as "sampleDataFile",
      c.host_name as "hostName", c.cloud_id as "cloudId"
    from machines m left join lateral (
      select c.host_name, c.cloud_id from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1) c on true
    where m.id = any(${sql.param(ids)}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The lengths of the output and deployer log of operations `ids` (the offsets of their next appends). */
export async function selectLogLengths(db: DbOrTx, ids: number[]): Promise<Map<number, { output: number; deployerLog: number }>> {
  const { rows } = await db.execute<{ id: number; output: number; deployerLog: number }>(sql`
    select id, char_length(output)::int as output, char_length(deployer_log)::int as "deployerLog" from operations where id = any(${sql.param(ids)}::int[])`);
  return new Map(rows.map((r) => [r.id, { output: r.output, deployerLog: r.deployerLog }]));
}

/** Operation `id` as a protocol call checks it: its lease, its machine and class, its type, params and user, its logs' lengths (characters); undefined when unknown. */
export async function selectLease(db: DbOrTx, id: number) {
  const { rows } = await db.execute<{
    status: string | null;
    attempts: number;
    worker: string | null;
    machineId: number;
    classId: number;
    typeName: string;
    params: Record<string, unknown>;
    userName: string;
    decision: string | null;
    decidedBy: string | null;
    decisionReason: string | null;
    outputLength: number;
    deployerLogLength: number;
  }>(sql`
    select o.status, o.attempts, o.worker, o.machine_id as "machineId", m.class_id as "classId", o.type_name as "typeName", o.params, o.user_name as "userName",
      o.decision, o.decided_by as "decidedBy", o.decision_reason as "decisionReason",
      char_length(o.output)::int as "outputLength", char_length(o.deployer_log)::int as "deployerLogLength"
    from operations o join machines m on m.id = o.machine_id where o.id = ${id}`);
  return rows[0];
}

/**
 * An operation `o` (joined with machines `m`) that the MMA whose workers start
 * with `workerPrefix` holds: RUNNING, its worker, on a machine of `classId`.
 * The fence of every write of the protocol; the caller adds the attempt.
 */
const heldBy = (workerPrefix: string, classId: number) =>
  sql`o.status = 'RUNNING' and starts_with(o.worker, ${workerPrefix}) and m.id = o.machine_id and m.class_id = ${classId}`;

/**
 * Renews the leases of `leases` that the MMA whose workers start with
 * `workerPrefix` holds on machines of class `classId`; answers the renewed
 * operations with their decision (CANCEL: the MMA stops it).
 */
export async function renewLeases(db: DbOrTx, leases: { operationId: number; attempt: number }[], workerPrefix: string, classId: number) {
  if (leases.length === 0) return [];
  const { rows } = await db.execute<{ id: number; decision: string | null; decidedBy: string | null }>(sql`
    update operations o set heartbeat_at = now()
    from unnest(${sql.param(leases.map((l) => l.operationId))}::int[], ${sql.param(leases.map((l) => l.attempt))}::int[]) as l(id, attempt), machines m
    where o.id = l.id and o.attempts = l.attempt and ${heldBy(workerPrefix, classId)}
    returning o.id, o.decision, o.decided_by as "decidedBy"`);
  return rows;
}

/**
 * Writes `text` at `offset` of the stream of operation `operationId` and renews
 * its lease, in one statement fenced by the lease: RUNNING in `attempt`, a
 * worker starting with `workerPrefix`, a machine of class `classId`. The part
 * of `text` already in the stream (a retried append) is not written again
 * (`unwrittenPart`: offsets count characters). Answers the stream's length after
 * it, or 'refused' when nothing was written: the lease is not this MMA's
 * (unknown operation, another class, ended, another attempt or worker), or
 * `offset` is past the stream's end. The caller tells which apart
 * (`selectLease`), off the path of every append that succeeds: one round trip
 * per append (bench/operations with SIM_MMA=protocol: it was five, a
 * transaction with the lease read, the length read under lock and the write).
 *
 * Concurrent appends to one stream are serialized by the row's lock: the
 * second is evaluated again against the first's result (PostgreSQL's
 * read-committed update re-check), so it writes only what is still missing.
 */
export async function appendAt(
  db: DbOrTx,
  o: { operationId: number; attempt: number; workerPrefix: string; classId: number; stream: 'output' | 'deployerLog'; offset: number; text: string },
): Promise<number | 'refused'> {
  const column = sql.identifier(o.stream === 'output' ? operations.output.name : operations.deployerLog.name);
  const { rows } = await db.execute<{ length: number }>(sql`
    update operations o set ${column} = o.${column} || ${unwrittenPart(sql`o.${column}`, sql`${o.text}::text`, sql`${o.offset}::int`)}, heartbeat_at = now()
    from machines m
    where o.id = ${o.operationId} and o.attempts = ${o.attempt} and ${heldBy(o.workerPrefix, o.classId)}
      and ${o.offset}::int <= char_length(o.${column})
    returning char_length(o.${column})::int as length`);
  return rows[0]?.length ?? 'refused';
}

/** Machine `id` as a report checks it: its class and whether it is deleted; undefined when unknown. */
export async function selectReportMachine(db: DbOrTx, id: number) {
  const { rows } = await db.execute<{ classId: number; deleted: boolean }>(
    sql`select m.class_id as "classId", m.deleted_at is not null as deleted from machines m where m.id = ${id}`,
  );
  return rows[0];
}

/**
 * Stores a report of machine `machineId` by MMA `agentId`: the parts given
 * replace the stored ones, the others are kept (one row per machine).
 * Answers the report's time (ISO).
 */
export async function upsertReport(
  db: DbOrTx,
  r: { machineId: number; agentId: number; siteServerStatus?: TSiteServerStatus; installedVersions?: Record<string, string> },
): Promise<string> {
  const status = r.siteServerStatus === undefined ? null : JSON.stringify(r.siteServerStatus);
  const versions = r.installedVersions === undefined ? null : JSON.stringify(r.installedVersions);
  const { rows } = await db.execute<{ reportedAt: string }>(sql`
    insert into machine_reports as r (machine_id, agent_id, reported_at, site_server_status, installed_versions)
    values (${r.machineId}, ${r.agentId}, now(), ${status}::jsonb, ${versions}::jsonb)
    on conflict (machine_id) do update set agent_id = excluded.agent_id, reported_at = excluded.reported_at,
      site_server_status = coalesce(excluded.site_server_status, r.site_server_status),
      installed_versions = coalesce(excluded.installed_versions, r.installed_versions)
    returning ${isoTime(sql`r.reported_at`)} as "reportedAt"`);
  return rows[0]!.reportedAt;
}

/** Releases the leases of every RUNNING operation of `worker` (heartbeat at the epoch: stale, resumed at the next look). */
export async function releaseWorkerLeases(db: DbOrTx, worker: string): Promise<void> {
  await db.execute(sql`update operations set heartbeat_at = to_timestamp(0) where status = 'RUNNING' and worker = ${worker}`);
}
