/**
 * The SQL of the notification delivery worker (issue 28 point 3; `README.md`
 * beside it): fan the captured events out to the matching channels, claim due
 * deliveries under a lease, and settle each one (sent, retried later, failed).
 * Every statement is one round trip and safe under concurrent workers
 * (`for update skip locked`, the unique (event, channel) index, the lease owner
 * as the fence of a settle).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/**
 * Makes the deliveries of up to `batch` events not yet fanned out: one per event
 * and channel whose subscription names the event's kind, matches its class and
 * account filters and is not younger than the event; marks the events fanned
 * out. Answers how many events it took (0: none waits).
 */
export async function fanOutEvents(db: DbOrTx, batch: number): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    with events as (
      select id, kind, class_id, account_id, created_at from notification_events
      where fanned_out_at is null order by id limit ${batch} for update skip locked
    ), made as (
      insert into notification_deliveries (event_id, channel_id)
      select distinct e.id, s.channel_id from events e
      join notification_subscriptions s on e.kind = any(s.events)
        and (s.class_id is null or s.class_id = e.class_id)
        and (s.account_id is null or s.account_id = e.account_id)
        and s.created_at <= e.created_at
      on conflict (event_id, channel_id) do nothing
      returning id
    )
    update notification_events n set fanned_out_at = now() from events where n.id = events.id
    returning n.id`);
  return rows.length;
}

/** A claimed delivery with what its message says: the event, its channel and the names of what it is about. */
export type ClaimedDelivery = {
  id: number;
  attempts: number;
  channelId: number;
  channelName: string;
  channelKind: 'webhook' | 'slack' | 'email';
  target: string;
  /** The webhook's sealed secret; null for the other kinds. */
  secret: string | null;
  eventId: number;
  kind: string;
  occurredAt: Date;
  rolloutId: number | null;
  wave: number | null;
  operationId: number | null;
  machineId: number | null;
  accountId: number | null;
  classId: number | null;
  issueId: number | null;
  reopened: boolean;
  rolloutReason: string | null;
  operationType: string | null;
  machineName: string | null;
  accountName: string | null;
  className: string | null;
  issueDescription: string | null;
};

/**
 * Claims up to `batch` due deliveries (Pending, `next_attempt_at` passed, no live
 * lease) for `owner` for `leaseMs`, counting the attempt. A lease that ran out
 * (a worker that died while sending) makes its delivery due again.
 */
export async function claimDeliveries(db: DbOrTx, o: { owner: string; batch: number; leaseMs: number }): Promise<ClaimedDelivery[]> {
  const { rows } = await db.execute<ClaimedDelivery>(sql`
    with due as (
      select id from notification_deliveries
      where status = 'Pending' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
      order by next_attempt_at, id limit ${o.batch} for update skip locked
    ), claimed as (
      update notification_deliveries d set attempts = d.attempts + 1, lease_owner = ${o.owner},
        lease_until = now() + ${o.leaseMs}::int * interval '1 millisecond'
      from due where d.id = due.id
      returning d.id, d.attempts, d.event_id, d.channel_id
    )
    select d.id, d.attempts, c.id as "channelId", c.name as "channelName", c.kind as "channelKind", c.target, c.secret,
      e.id as "eventId", e.kind, e.created_at as "occurredAt", e.rollout_id as "rolloutId", e.wave, e.operation_id as "operationId",
      e.machine_id as "machineId", coalesce(e.account_id, m.account_id) as "accountId", e.class_id as "classId", e.issue_id as "issueId", e.reopened,
      r.reason as "rolloutReason", o.type_name as "operationType", m.name as "machineName", a.name as "accountName",
      cl.name as "className", i.description as "issueDescription"
    from claimed d
    join notification_channels c on c.id = d.channel_id
    join notification_events e on e.id = d.event_id
    left join rollouts r on r.id = e.rollout_id
    left join operations o on o.id = e.operation_id
    left join machines m on m.id = e.machine_id
    left join accounts a on a.id = coalesce(e.account_id, m.account_id)
    left join mma_classes cl on cl.id = e.class_id
    left join issues i on i.id = e.issue_id
    order by d.id`);
  // Ids are bigint: PostgreSQL answers them as strings (exact up to 2^53 as numbers).
  return rows.map((r) => ({ ...r, id: Number(r.id), eventId: Number(r.eventId), occurredAt: new Date(r.occurredAt) }));
}

/**
 * Extends to `leaseMs` from now the leases `owner` still holds on the deliveries
 * `ids` (those not settled yet), so that a send slower than the lease is not
 * claimed and sent again by another worker meanwhile.
 */
export async function renewLeases(db: DbOrTx, o: { ids: number[]; owner: string; leaseMs: number }): Promise<void> {
  await db.execute(sql`
    update notification_deliveries set lease_until = now() + ${o.leaseMs}::int * interval '1 millisecond'
    where id = any(${sql.param(o.ids)}::bigint[]) and lease_owner = ${o.owner} and status = 'Pending'`);
}

/** Marks a delivery sent, if `owner` still holds its lease. */
export async function markSent(db: DbOrTx, o: { id: number; owner: string }): Promise<void> {
  await db.execute(sql`
    update notification_deliveries set status = 'Sent', sent_at = now(), lease_until = null, lease_owner = null
    where id = ${o.id} and lease_owner = ${o.owner} and status = 'Pending'`);
}

/**
 * Records a failed attempt, if `owner` still holds the lease: `Failed` for good
 * when it was the last of `maxAttempts`, else due again after `retryInMs`.
 */
export async function markAttemptFailed(db: DbOrTx, o: { id: number; owner: string; error: string; maxAttempts: number; retryInMs: number }): Promise<void> {
  await db.execute(sql`
    update notification_deliveries set last_error = ${o.error.slice(0, 1000)}, lease_until = null, lease_owner = null,
      status = case when attempts >= ${o.maxAttempts} then 'Failed' else 'Pending' end,
      next_attempt_at = now() + ${o.retryInMs}::int * interval '1 millisecond'
    where id = ${o.id} and lease_owner = ${o.owner} and status = 'Pending'`);
}

/**
 * Retention: deletes up to `limit` events raised before `before` none of whose
 * deliveries is still Pending, their deliveries with them (the foreign key's
 * cascade). Answers how many events it deleted.
 */
export async function pruneEvents(db: DbOrTx, o: { before: Date; limit: number }): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    delete from notification_events where id in (
      select e.id from notification_events e
      where e.created_at < ${o.before.toISOString()}::timestamptz and e.fanned_out_at is not null
        and not exists (select 1 from notification_deliveries d where d.event_id = e.id and d.status = 'Pending')
      order by e.created_at limit ${o.limit})
    returning id`);
  return rows.length;
}
