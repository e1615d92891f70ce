/**
 * The SQL of the notification channels module (issue 28 point 3): channels with
 * their subscriptions, a test event with its one delivery, and the recent
 * deliveries of the outbox (`notification-channels.schema.ts`). The delivery
 * worker's own SQL is in `engine/notification-delivery/delivery.repository.ts`.
 */
import { sql } from 'drizzle-orm';
import type { TNotificationChannel, TNotificationChannelKind, TNotificationDelivery, TNotificationSubscription } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';

/** The NOTIFY channel that wakes the delivery worker (the triggers of migration 0040 use it too). */
export const NOTIFICATION_EVENTS_CHANNEL = 'fleet_notification_events';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type SubscriptionRow = { id: number; channelId: number; events: string[]; classId: number | null; accountId: number | null; createdBy: string; createdAt: Date };

/** The columns of a {@link SubscriptionRow}, for a select or a returning. */
const SUBSCRIPTION_COLUMNS = sql.raw('id, channel_id as "channelId", events, class_id as "classId", account_id as "accountId", created_by as "createdBy", created_at as "createdAt"');

const toSubscription = (r: SubscriptionRow): TNotificationSubscription => ({
  id: r.id,
  channelId: r.channelId,
  events: r.events as TNotificationSubscription['events'],
  classId: r.classId,
  accountId: r.accountId,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt)!,
});

/** Every channel with its subscriptions, oldest first; `id` only that one. */
export async function selectChannels(db: DbOrTx, id?: number): Promise<TNotificationChannel[]> {
  const { rows: channels } = await db.execute<{ id: number; name: string; kind: TNotificationChannelKind; target: string; createdBy: string; createdAt: Date }>(sql`
    select id, name, kind, target, created_by as "createdBy", created_at as "createdAt"
    from notification_channels ${id === undefined ? sql`` : sql`where id = ${id}`} order by id`);
  const { rows: subscriptions } = await db.execute<SubscriptionRow>(sql`
    select ${SUBSCRIPTION_COLUMNS}
    from notification_subscriptions ${id === undefined ? sql`` : sql`where channel_id = ${id}`} order by id`);
  return channels.map((c) => ({
    ...c,
    createdAt: iso(c.createdAt)!,
    subscriptions: subscriptions.filter((s) => s.channelId === c.id).map(toSubscription),
  }));
}

/**
 * Serialises the adds of channels (a transaction-scoped advisory lock), so that
 * two at once cannot both pass the count of {@link countChannels} past the limit.
 */
export async function lockChannelAdds(db: DbOrTx): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('notification_channels'))`);
}

/** Locks channel `id`'s row until the transaction ends (its subscriptions counted and added one at a time); answers whether it exists. */
export async function lockChannel(db: DbOrTx, id: number): Promise<boolean> {
  const { rows } = await db.execute(sql`select id from notification_channels where id = ${id} for update`);
  return rows.length > 0;
}

export async function countChannels(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from notification_channels`);
  return rows[0]!.n;
}

/** Inserts a channel; `secret` already sealed. Answers its id. */
export async function insertChannel(
  db: DbOrTx,
  c: { name: string; kind: TNotificationChannelKind; target: string; secret: string | null; createdBy: string },
): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    insert into notification_channels (name, kind, target, secret, created_by)
    values (${c.name}, ${c.kind}, ${c.target}, ${c.secret}, ${c.createdBy}) returning id`);
  return rows[0]!.id;
}

/** Sets a channel's name and target (its kind and secret stay). */
export async function updateChannel(db: DbOrTx, c: { id: number; name: string; target: string }): Promise<void> {
  await db.execute(sql`update notification_channels set name = ${c.name}, target = ${c.target} where id = ${c.id}`);
}

/** Deletes a channel (its subscriptions, test events and deliveries go with it); answers whether it existed. */
export async function deleteChannel(db: DbOrTx, id: number): Promise<boolean> {
  const { rows } = await db.execute(sql`delete from notification_channels where id = ${id} returning id`);
  return rows.length > 0;
}

export async function insertSubscription(
  db: DbOrTx,
  s: { channelId: number; events: string[]; classId: number | null; accountId: number | null; createdBy: string },
): Promise<TNotificationSubscription> {
  const { rows } = await db.execute<SubscriptionRow>(sql`
    insert into notification_subscriptions (channel_id, events, class_id, account_id, created_by)
    values (${s.channelId}, ${sql.param(s.events)}::text[], ${s.classId}, ${s.accountId}, ${s.createdBy})
    returning ${SUBSCRIPTION_COLUMNS}`);
  return toSubscription(rows[0]!);
}

export async function deleteSubscription(db: DbOrTx, channelId: number, id: number): Promise<TNotificationSubscription | undefined> {
  const { rows } = await db.execute<SubscriptionRow>(sql`
    delete from notification_subscriptions where id = ${id} and channel_id = ${channelId}
    returning ${SUBSCRIPTION_COLUMNS}`);
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

/** Whether a class and an account exist (a subscription's filters). */
export async function filtersExist(db: DbOrTx, f: { classId: number | null; accountId: number | null }): Promise<{ classOk: boolean; accountOk: boolean }> {
  const { rows } = await db.execute<{ classOk: boolean; accountOk: boolean }>(sql`
    select ${f.classId}::int is null or exists (select 1 from mma_classes where id = ${f.classId}) as "classOk",
           ${f.accountId}::int is null or exists (select 1 from accounts where id = ${f.accountId} and deleted_at is null) as "accountOk"`);
  return rows[0]!;
}

/**
 * Queues a test message to one channel: a `Test` event already fanned out and its
 * one delivery, then wakes the worker. Answers the delivery's id.
 */
export async function insertTestDelivery(db: DbOrTx, channelId: number): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    with event as (
      insert into notification_events (kind, channel_id, fanned_out_at) values ('Test', ${channelId}, now()) returning id
    )
    insert into notification_deliveries (event_id, channel_id) select id, ${channelId} from event returning id`);
  await db.execute(sql`select pg_notify(${NOTIFICATION_EVENTS_CHANNEL}, '')`);
  return Number(rows[0]!.id);
}

/** The newest deliveries first, at most `limit`, optionally of one channel. */
export async function selectDeliveries(db: DbOrTx, q: { channelId?: number; limit: number }): Promise<TNotificationDelivery[]> {
  const { rows } = await db.execute<{
    id: string | number;
    channelId: number;
    channelName: string;
    event: TNotificationDelivery['event'];
    status: TNotificationDelivery['status'];
    attempts: number;
    lastError: string | null;
    createdAt: Date;
    sentAt: Date | null;
    nextAttemptAt: Date;
  }>(sql`
    select d.id, d.channel_id as "channelId", c.name as "channelName", e.kind as event, d.status, d.attempts,
           d.last_error as "lastError", d.created_at as "createdAt", d.sent_at as "sentAt", d.next_attempt_at as "nextAttemptAt"
    from notification_deliveries d
    join notification_channels c on c.id = d.channel_id
    join notification_events e on e.id = d.event_id
    ${q.channelId === undefined ? sql`` : sql`where d.channel_id = ${q.channelId}`}
    order by d.id desc limit ${q.limit}`);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    createdAt: iso(r.createdAt)!,
    sentAt: iso(r.sentAt),
    nextAttemptAt: r.status === 'Pending' ? iso(r.nextAttemptAt) : null,
  }));
}
