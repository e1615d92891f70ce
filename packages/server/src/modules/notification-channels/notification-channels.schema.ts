/**
 * Tables of the notification channels and their durable outbox (issue 28 point 3;
 * `engine/notification-delivery/README.md`):
 *
 * - `notification_channels`: where messages go (`kind` webhook, slack or email;
 *   `target` its URL or address; `secret` a webhook's HMAC key, sealed with
 *   `DATA_KEY`).
 * - `notification_subscriptions`: which event kinds a channel receives, optionally
 *   only those of one class (`class_id`) or one account (`account_id`).
 * - `notification_events`: what happened, written by the triggers of migration
 *   0040 in the transaction of the change itself (so no writer can forget one),
 *   only while some subscription exists; `fanned_out_at` is set once the worker
 *   made its deliveries. A `Test` event names its one channel (`channel_id`).
 *   Deleted 30 days after it once its deliveries are settled (`created_at`
 *   indexed for that), its deliveries with it.
 * - `notification_deliveries`: the outbox, one row per event and channel (unique:
 *   a channel gets an event once however many of its subscriptions match),
 *   claimed under a lease (`lease_until`, `lease_owner`), `Pending` until sent,
 *   retried with backoff (`next_attempt_at`), `Failed` after its last attempt.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const notificationChannels = pgTable('notification_channels', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  target: text('target').notNull(),
  secret: text('secret'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const notificationSubscriptions = pgTable(
  'notification_subscriptions',
  {
    id: serial('id').primaryKey(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    events: text('events').array().notNull(),
    classId: integer('class_id'),
    accountId: integer('account_id'),
    createdBy: text('created_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('notification_subscriptions_channel_idx').on(t.channelId)],
);

export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    rolloutId: integer('rollout_id'),
    wave: integer('wave'),
    operationId: integer('operation_id'),
    machineId: integer('machine_id'),
    accountId: integer('account_id'),
    classId: integer('class_id'),
    issueId: integer('issue_id'),
    reopened: boolean('reopened').notNull().default(false),
    channelId: integer('channel_id').references(() => notificationChannels.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    fannedOutAt: ts('fanned_out_at'),
  },
  (t) => [index('notification_events_fan_out_idx').on(t.id).where(sql`fanned_out_at is null`), index('notification_events_created_idx').on(t.createdAt)],
);

export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => notificationEvents.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('Pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    leaseUntil: ts('lease_until'),
    leaseOwner: text('lease_owner'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_deliveries_event_channel_idx').on(t.eventId, t.channelId),
    index('notification_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'Pending'`),
    index('notification_deliveries_channel_idx').on(t.channelId, t.id),
  ],
);
