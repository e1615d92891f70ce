/**
 * Tables of the audit module (DESIGN §5: every operator mutation audited in the
 * same transaction; §12 one trail; spec 2 §3 Audit activity, §2.11 Activity
 * log): `audit_activities`, `audit_activity_accounts`. Written by
 * `audit.repository.ts` (`insertActivity`, in the transaction of the change).
 *
 * Invariants: an activity holds the action, user, time, params and field-level
 * changes (entityName, propertyName, oldValue, newValue); its accounts are
 * copied by value (no foreign key to `accounts`) so the audit outlives them.
 */
import { index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';

export const auditActivities = pgTable(
  'audit_activities',
  {
    id: serial('id').primaryKey(),
    action: text('action').notNull(),
    userName: text('user_name').notNull(),
    time: ts('time').notNull().defaultNow(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    changes: jsonb('changes')
      .$type<{ entityName: string; propertyName: string; oldValue: unknown; newValue: unknown }[]>()
      .notNull()
      .default([]),
  },
  (t) => [index('audit_activities_time_idx').on(t.time), index('audit_activities_action_idx').on(t.action, t.time)],
);

/** Accounts an activity concerns; name and class are kept so the audit outlives the account. */
export const auditActivityAccounts = pgTable(
  'audit_activity_accounts',
  {
    activityId: integer('activity_id').notNull().references(() => auditActivities.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull(),
    accountName: text('account_name').notNull(),
    classId: integer('class_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.activityId, t.accountId] }), index('audit_accounts_account_idx').on(t.accountId)],
);
