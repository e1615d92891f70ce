/**
 * The table of the account settings module (spec 1 §2 Instance, License, Backup
 * Settings and Idle Schedule cards, §3 licenseConfig, machineConfig,
 * backupConfig, Idle schedule entry; DESIGN §5): `account_settings`, one row per
 * account. Written by `account-settings.repository.ts` and at creation from a
 * draft.
 *
 * Invariants: sections of an account (properties on `accounts`; license,
 * instance, backup and idle here) carry their own `*Version` counter so that a
 * stale push is refused with 409 (DESIGN §5).
 */
import { integer, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.schema.js';

/**
 * The settings sections of an account (spec 1 §3 licenseConfig, machineConfig,
 * backupConfig, idleSchedules), each with its own version for stale-push
 * detection. Kept apart from `accounts` so that the accounts list scans narrow rows.
 */
export const accountSettings = pgTable('account_settings', {
  accountId: integer('account_id').primaryKey().references(() => accounts.id),
  licenseConfig: jsonb('license_config').$type<Record<string, unknown>>().notNull().default({}),
  machineConfig: jsonb('machine_config').$type<Record<string, unknown>>().notNull().default({}),
  backupConfig: jsonb('backup_config').$type<Record<string, unknown>>().notNull().default({}),
  idleSchedules: jsonb('idle_schedules').$type<{ stopAt: string; resumeAfter: number }[]>().notNull().default([]),
  licenseVersion: integer('license_version').notNull().default(1),
  instanceVersion: integer('instance_version').notNull().default(1),
  backupVersion: integer('backup_version').notNull().default(1),
  idleVersion: integer('idle_version').notNull().default(1),
});
