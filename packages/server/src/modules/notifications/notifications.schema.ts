/**
 * The table of the notifications module (spec 2 §2.3 Notification, §3, §7
 * Notifications): `notification_messages`. Written by
 * `notifications.repository.ts`.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { machines } from '../machines/machines.schema.js';

/**
 * Notifications to the users of a machine (spec 2 §2.3 Notification, §7
 * Notifications): one row per target machine; pending until `deliveredAt`.
 */
export const notificationMessages = pgTable(
  'notification_messages',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id').notNull().references(() => machines.id),
    title: text('title').notNull(),
    body: text('body').notNull(),
    priority: text('priority').notNull(),
    sentBy: text('sent_by').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [index('notification_messages_pending_idx').on(t.createdAt).where(sql`delivered_at is null`)],
);
