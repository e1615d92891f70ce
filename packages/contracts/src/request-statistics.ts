/**
 * Request statistics (spec 2 §2.10, §3 Request statistic, §7 Operations and
 * statistics, §9; DESIGN §14): what the worker's probes of each running
 * machine's launcher and site master URLs measured.
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, refineTimeRange, TIME_RANGE_FIELDS, VIEWER_PAGE_SIZE, ZId, ZPageQuery, zPaged, ZSortOrder } from './common.js';

/** Which URL of the machine a statistic is about: its launcherUrl or its siteMasterUrl. */
export const ZProbeKind = z.enum(['launcher', 'siteMaster']);
export type TProbeKind = z.infer<typeof ZProbeKind>;

/** Largest page `GET /request-statistics` answers (the viewer shows 20, 50 or 100 a page). */
export const MAX_REQUEST_STATISTICS_PAGE = 300;

/**
 * How far past the requested page `GET /request-statistics` counts rows: with
 * more matches than `startIndex + limit + REQUEST_STATISTICS_COUNT_AHEAD` the
 * total is that many and `totalCapped` is true ("at least"), as for operations.
 * 100 rather than the operations' 1000: every page of 10 counts that many rows
 * (each joined to its machine and account for visibility), and ten pages ahead
 * is what a pager shows.
 */
export const REQUEST_STATISTICS_COUNT_AHEAD = 100;

/** Page size of the Request Statistics viewer: the viewers' one, 20 (issue 24 point 7; spec 2 §9 gave 10). */
export const REQUEST_STATISTICS_PAGE_SIZE = VIEWER_PAGE_SIZE;

/**
 * One probed URL of a machine (spec 2 §3 Request statistic). Latencies are
 * milliseconds, averaged over the successful probes; success ratios are 0..1.
 * A window without probes answers null. Windows (DESIGN §14,
 * `engine/probes/README.md`): hour = the last 60 minutes (the previous clock
 * hour weighted by the part still inside them), day = the current clock hour
 * and the 23 before it, week = the current clock hour and the 167 before it.
 */
export const ZRequestStatistic = z.object({
  machineId: z.number().int(),
  machineName: z.string(),
  kind: ZProbeKind,
  url: z.string(),
  /** Time of the last probe (ISO 8601, UTC). */
  lastUpdate: z.string(),
  /** Latency of the last probe, ms; null when it failed. */
  lastLatency: z.number().nullable(),
  /** Whether the last probe succeeded. */
  lastSuccess: z.boolean(),
  avgWeek: z.number().nullable(),
  avgDay: z.number().nullable(),
  avgHour: z.number().nullable(),
  succWeek: z.number().nullable(),
  succDay: z.number().nullable(),
  succHour: z.number().nullable(),
});
export type TRequestStatistic = z.infer<typeof ZRequestStatistic>;

/** The last probe's outcome as a filter (`status`): it succeeded, or it failed. */
export const REQUEST_STATISTIC_STATUSES = ['success', 'failure'] as const;
export const ZRequestStatisticStatus = z.enum(REQUEST_STATISTIC_STATUSES, { error: 'Must be success or failure' });
export type TRequestStatisticStatus = z.infer<typeof ZRequestStatisticStatus>;

/**
 * The orders of `GET /request-statistics` (`sort`): `machine` (the machine's
 * name, then id, launcher before site master; ascending unless `order=desc`)
 * and `lastUpdate` (the last probe's time; newest first unless `order=asc`).
 * Without `sort`: by machine id, launcher before site master.
 */
export const REQUEST_STATISTICS_SORTS = ['machine', 'lastUpdate'] as const;
export const ZRequestStatisticsSort = z.enum(REQUEST_STATISTICS_SORTS);
export type TRequestStatisticsSort = z.infer<typeof ZRequestStatisticsSort>;

/**
 * `GET /request-statistics` (Request Statistics viewer, spec 2 §2.10; issue 24
 * point 7): by machine id, then launcher before site master, or by `sort` in
 * `order`, paged on the server. `machineId` is the viewer's machine selector;
 * `classId` the machine's class; `status` the last probe's outcome; `from` and
 * `to` bound the last probe's time (inclusive, ISO 8601 with a zone).
 */
export const ZRequestStatisticsQuery = z
  .object({
    ...PAGE_QUERY_FIELDS,
    limit: PAGE_QUERY_FIELDS.limit.pipe(z.number().max(MAX_REQUEST_STATISTICS_PAGE)),
    machineId: ZId.optional(),
    classId: ZId.optional(),
    status: ZRequestStatisticStatus.optional(),
    ...TIME_RANGE_FIELDS,
    sort: ZRequestStatisticsSort.optional(),
    order: ZSortOrder.optional(),
  })
  .superRefine(refineTimeRange);
export type TRequestStatisticsQuery = z.input<typeof ZRequestStatisticsQuery>;

/** `GET /request-statistics`: `totalItems` is exact unless `totalCapped` (see {@link REQUEST_STATISTICS_COUNT_AHEAD}). */
export const ZRequestStatisticsPage = zPaged(ZRequestStatistic).extend({ totalCapped: z.boolean() });
export type TRequestStatisticsPage = z.infer<typeof ZRequestStatisticsPage>;

/** `GET /machines/{id}/request-statistics` (spec 2 §7 Machines): the machine's probed URLs (at most two). */
export const ZMachineRequestStatisticsQuery = ZPageQuery;
export const ZMachineRequestStatisticsResponse = zPaged(ZRequestStatistic);
export type TMachineRequestStatisticsResponse = z.infer<typeof ZMachineRequestStatisticsResponse>;
