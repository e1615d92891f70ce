/**
 * The table of the MMA protocol's reports (issue 27 point 2; `@fleet/contracts`
 * mma-agents `ZMmaMachineReport`): `machine_reports`, the last report of each
 * machine of a remote class. Written by `mma-protocol.repository.ts`; read by
 * the Server Status call (`modules/operations`) and the worker's server status
 * check (`engine/issues/server-status-check.ts`).
 *
 * Invariants:
 * - One row per machine (its primary key): a report replaces the parts it
 *   names (`site_server_status`, `installed_versions`), keeping the other.
 * - `reported_at` is the time of the last report, `agent_id` the MMA that sent
 *   it (an MMA of the machine's class when it was sent).
 */
import { integer, jsonb, pgTable } from 'drizzle-orm/pg-core';
import type { TSiteServerStatus } from '@fleet/contracts';
import { ts } from '../../db/schema-types.js';
import { machines } from '../machines/machines.schema.js';
import { mmaAgents } from '../mma-agents/mma-agents.schema.js';

export const machineReports = pgTable('machine_reports', {
  machineId: integer('machine_id')
    .primaryKey()
    .references(() => machines.id, { onDelete: 'cascade' }),
  agentId: integer('agent_id')
    .notNull()
    .references(() => mmaAgents.id),
  reportedAt: ts('reported_at').notNull().defaultNow(),
  siteServerStatus: jsonb('site_server_status').$type<TSiteServerStatus>(),
  /** `component → {branch}|{hash}` as the MMA read them. */
  installedVersions: jsonb('installed_versions').$type<Record<string, string>>(),
});
