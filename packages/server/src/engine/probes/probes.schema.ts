/**
 * Tables of probes and request statistics (DESIGN §14; spec 2 §3 Request
 * statistic, §2.10 Request statistics viewer; invariants in `README.md` beside
 * this file): `request_statistics`, `probe_hourly`, `probe_rollups`,
 * `probe_cursor`. Written by the probe tick and rollup (`probes.repository.ts`);
 * the raw samples (`probe_samples`, hourly partitions) are made by hand in the
 * migration and have no table here. The request statistics module reads them.
 *
 * Invariants: a rollup replaces its hour, so running it twice counts once; a
 * slot of the probe schedule is probed once, however many workers run.
 */
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema-types.js';
import { machines } from '../../modules/machines/machines.schema.js';

/**
 * One row per probed URL of a machine (kind 0 launcher, 1 site master), kept by
 * the probe tick in the statement that stores the samples: the last probe, the
 * failing streak (`failingSince`, null while it succeeds) and two clock-hour
 * accumulators (`acc*` the hour of the last probe, `prev*` the hour before it):
 * probes, successes, sum of the successful probes' latencies (ms). The list of
 * request statistics reads this table, plus `probe_hourly` for the day and week.
 */
export const requestStatistics = pgTable(
  'request_statistics',
  {
    machineId: integer('machine_id')
      .notNull()
      .references(() => machines.id, { onDelete: 'cascade' }),
    kind: smallint('kind').notNull(),
    url: text('url').notNull(),
    lastAt: ts('last_at').notNull(),
    lastLatencyMs: doublePrecision('last_latency_ms'),
    lastOk: boolean('last_ok').notNull(),
    failingSince: ts('failing_since'),
    accHour: ts('acc_hour').notNull(),
    accN: integer('acc_n').notNull(),
    accOk: integer('acc_ok').notNull(),
    accLatSum: doublePrecision('acc_lat_sum').notNull(),
    prevHour: ts('prev_hour'),
    prevN: integer('prev_n').notNull().default(0),
    prevOk: integer('prev_ok').notNull().default(0),
    prevLatSum: doublePrecision('prev_lat_sum').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.machineId, t.kind] }),
    // The viewer's failure filter (issue 24 point 7): the few failing URLs, in the list's order. Its
    // columns change only when a URL starts or stops failing, so the tick's updates stay HOT.
    index('request_statistics_failing_idx').on(t.machineId, t.kind).where(sql`not last_ok`),
    // The viewer's order by last update (issue 24 point 7), walked either way and stopped at the page. Every
    // probe changes `last_at`, so the tick's updates are no longer HOT: measured on the scale fleet
    // (bench/fleet, 2026-11-30) the probes kept their rate and lag, and the page went from a sort of every
    // row (about 35 ms) to a walk of the index.
    index('request_statistics_last_at_idx').on(t.lastAt, t.machineId, t.kind),
  ],
);

/**
 * Hourly rollups of the raw samples (`probe_samples`, hourly partitions made by
 * hand in the migration), kept eight days: per URL and clock hour, probes,
 * successes and the sum of the successful probes' latencies (ms). A rollup
 * replaces its hour's rows, so running it twice counts once.
 */
export const probeHourly = pgTable(
  'probe_hourly',
  {
    machineId: integer('machine_id').notNull(),
    kind: smallint('kind').notNull(),
    hour: ts('hour').notNull(),
    n: integer('n').notNull(),
    ok: integer('ok').notNull(),
    latSum: doublePrecision('lat_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.machineId, t.kind, t.hour] }), index('probe_hourly_hour_idx').on(t.hour)],
);

/** The clock hours already rolled up (written with their rollup, in one transaction). */
export const probeRollups = pgTable('probe_rollups', {
  hour: ts('hour').primaryKey(),
  samples: integer('samples').notNull(),
  rolledAt: ts('rolled_at').notNull().defaultNow(),
});

/**
 * How far the probe schedule has run (one row, id 1): the next tick probes the
 * targets whose slot lies after `through`. Locked by the tick (`skip locked`),
 * so several workers never probe the same slot twice.
 */
export const probeCursor = pgTable('probe_cursor', {
  id: smallint('id').primaryKey(),
  through: ts('through').notNull(),
});
