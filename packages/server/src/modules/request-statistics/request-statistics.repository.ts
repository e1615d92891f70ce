/**
 * SQL of the request statistics calls (spec 2 §2.10, §7; DESIGN §14): pages of
 * `request_statistics` rows with their machine and the day and week rollup
 * sums of the page's rows.
 *
 * Visibility (DESIGN §5): a row is listed when its machine and its account are
 * live and neither one's class is hidden. Order: machine id, then launcher
 * before site master (the primary key: a page walks it and stops), or the
 * machine's name or the last probe's time (issue 24 point 7); filters: machine,
 * class, the last probe's outcome and time.
 */
import { sql, type SQL } from 'drizzle-orm';
import { REQUEST_STATISTICS_COUNT_AHEAD } from '@fleet/contracts';
import { cappedCount, countCap, reachedCap } from '../../db/capped-count.js';
import type { Db } from '../../db/client.js';
import { compileStatement, compiledQuery, type CompiledStatement } from '../../db/prepared.js';
import { KIND_OF_CODE } from '../../engine/probes/probes.repository.js';
import type { Counts, StatisticFacts } from '../../engine/probes/windows.js';
import { rollupHours } from '../../engine/probes/windows.js';
import type { TProbeKind, TRequestStatisticsSort, TRequestStatisticStatus, TSortOrder } from '@fleet/contracts';

export interface StatisticsFilter {
  hiddenClassIds: number[];
  machineId?: number;
  /** The machine's class. */
  classId?: number;
  /** The last probe's outcome. */
  status?: TRequestStatisticStatus;
  /** The last probe's time range (inclusive, ISO 8601). */
  from?: string;
  to?: string;
}

/** A page's order: `sort` (none: machine id, launcher first) and its direction (default: ascending, `lastUpdate` newest first). */
export interface StatisticsOrder {
  sort?: TRequestStatisticsSort;
  order?: TSortOrder;
}

export interface StatisticRow extends StatisticFacts {
  machineId: number;
  machineName: string;
  kind: TProbeKind;
  url: string;
  lastAt: Date;
  lastLatencyMs: number | null;
  lastOk: boolean;
}

/**
 * The conditions of a filter on the row `rs` with its machine `m` and account
 * `a`, with the placeholders `hiddenClassIds`, `machineId`, `classId`, `from`
 * and `to` (each only when the filter has it); the status is a literal, so
 * that the failures walk `request_statistics_failing_idx`.
 */
function conditions(f: StatisticsFilter): SQL {
  const hidden = sql.placeholder('hiddenClassIds');
  const all = [sql`m.deleted_at is null`, sql`a.deleted_at is null`];
  if (f.hiddenClassIds.length > 0) all.push(sql`m.class_id <> all(${hidden}::int[])`, sql`a.class_id <> all(${hidden}::int[])`);
  if (f.classId !== undefined) all.push(sql`m.class_id = ${sql.placeholder('classId')}::int`);
  return sql`${sql.join(all, sql` and `)} and ${rowConditions(f)}`;
}

/** The filter's conditions on the row `rs` alone (machine, last probe's outcome and time), or `true`. */
function rowConditions(f: StatisticsFilter): SQL {
  const all: SQL[] = [sql`true`];
  if (f.machineId !== undefined) all.push(sql`rs.machine_id = ${sql.placeholder('machineId')}::int`);
  if (f.status !== undefined) all.push(f.status === 'success' ? sql`rs.last_ok` : sql`not rs.last_ok`);
  if (f.from !== undefined) all.push(sql`rs.last_at >= ${sql.placeholder('from')}::timestamptz`);
  if (f.to !== undefined) all.push(sql`rs.last_at <= ${sql.placeholder('to')}::timestamptz`);
  return sql.join(all, sql` and `);
}

/**
 * The ids of the matching rows in page order:
 * - no sort: machine id, launcher first (the primary key, or the failures'
 *   partial index, walked either way);
 * - `machine`: the machine's name, then id, walking `machines_live_name_idx`
 *   and each machine's rows by the primary key;
 * - `lastUpdate`: the last probe's time, newest first, walking
 *   `request_statistics_last_at_idx` either way (migration 0044). Every probe
 *   changes `last_at`, so that index ends the tick's HOT updates: an update of
 *   a batch of 1,446 rows went from about 4.3 to 10.5 ms (a second's probes,
 *   about 1 % of a core). Without it the order sorted every row: 35 ms a
 *   page on the scale fleet, 100 ms p95 at 20 clients (bench/fleet,
 *   2026-11-30).
 */
function matching(f: StatisticsFilter, o: StatisticsOrder): SQL {
  const desc = o.order === 'desc' || (o.sort === 'lastUpdate' && o.order === undefined);
  const dir = sql.raw(desc ? 'desc' : 'asc');
  if (o.sort === 'machine') {
    return sql`select rs.machine_id, rs.kind from machines m
      join request_statistics rs on rs.machine_id = m.id join accounts a on a.id = m.account_id
      where ${conditions(f)} order by m.name ${dir}, m.id ${dir}, rs.kind ${dir}`;
  }
  const order = o.sort === 'lastUpdate' ? sql`rs.last_at ${dir}, rs.machine_id ${dir}, rs.kind ${dir}` : sql`rs.machine_id ${dir}, rs.kind ${dir}`;
  return sql`select rs.machine_id, rs.kind from request_statistics rs
    join machines m on m.id = rs.machine_id join accounts a on a.id = m.account_id
    where ${conditions(f)} order by ${order}`;
}

/** The key of a filter's and order's shape (which conditions, which order): what decides the statements' text. */
const shape = (f: StatisticsFilter, o: StatisticsOrder) =>
  [
    f.hiddenClassIds.length > 0 ? 'hidden' : 'all',
    f.machineId !== undefined ? 'machine' : 'any',
    f.classId !== undefined ? 'class' : 'any',
    f.status ?? 'any',
    f.from !== undefined ? 'from' : '',
    f.to !== undefined ? 'to' : '',
    o.sort ?? 'id',
    o.order ?? 'default',
  ].join('-');

/**
 * The page statement of the page's ids (`ids`, in page order) and the rows to
 * count (`counted`, in the primary key's order: a capped count is the same in
 * any order): placeholders `startIndex`, `limit`, `dayFrom` (the day's first
 * rollup hour), `weekFrom` (the week's), `until` (the last), `cap` (where the
 * count stops), then the filter's. The total is an uncorrelated scalar
 * subquery (evaluated once) beside the page's rows, so a page is one round trip.
 * Each page row is looked up by its key in a lateral subquery (`limit 1`): a
 * generic plan takes the page for a tenth of the table and joined it back with a
 * sequential scan of every row (8 of the first page's 19 ms on the scale fleet).
 */
function pageStatement(ids: SQL, counted: SQL): SQL {
  const dayFrom = sql`${sql.placeholder('dayFrom')}::timestamptz`;
  return sql`
    select rs.machine_id, rs.name, rs.kind, rs.url, rs.last_at, rs.last_latency_ms, rs.last_ok,
      rs.acc_hour, rs.acc_n, rs.acc_ok, rs.acc_lat_sum, rs.prev_hour, rs.prev_n, rs.prev_ok, rs.prev_lat_sum,
      h.day_n, h.day_ok, h.day_lat, h.week_n, h.week_ok, h.week_lat,
      (${cappedCount(counted, sql.placeholder('cap'))}) as total
    from (select i.machine_id, i.kind, row_number() over () as n
      from (${ids} offset ${sql.placeholder('startIndex')} limit ${sql.placeholder('limit')}) i) p
    cross join lateral (select rs.*, m.name from request_statistics rs join machines m on m.id = rs.machine_id
      where rs.machine_id = p.machine_id and rs.kind = p.kind limit 1) rs
    cross join lateral (
      select coalesce(sum(n) filter (where hour >= ${dayFrom}), 0)::int as day_n,
        coalesce(sum(ok) filter (where hour >= ${dayFrom}), 0)::int as day_ok,
        coalesce(sum(lat_sum) filter (where hour >= ${dayFrom}), 0) as day_lat,
        coalesce(sum(n), 0)::int as week_n, coalesce(sum(ok), 0)::int as week_ok, coalesce(sum(lat_sum), 0) as week_lat
      from probe_hourly h
      where h.machine_id = rs.machine_id and h.kind = rs.kind
        and h.hour >= ${sql.placeholder('weekFrom')}::timestamptz and h.hour <= ${sql.placeholder('until')}::timestamptz
    ) h
    order by p.n`;
}

/** The page and count statements of each shape in use, written out once (db/prepared.ts). */
const statements = new Map<string, { page: CompiledStatement; count: CompiledStatement }>();

function statementsOf(f: StatisticsFilter, o: StatisticsOrder): { page: CompiledStatement; count: CompiledStatement } {
  const key = shape(f, o);
  let compiled = statements.get(key);
  if (!compiled) {
    const counted = matching(f, {});
    compiled = {
      page: compileStatement(pageStatement(matching(f, o), counted)),
      count: compileStatement(sql`select (${cappedCount(counted, sql.placeholder('cap'))}) as total`),
    };
    statements.set(key, compiled);
  }
  return compiled;
}

type Raw = {
  machine_id: number;
  name: string;
  kind: number;
  url: string;
  last_at: string | Date;
  last_latency_ms: number | null;
  last_ok: boolean;
  acc_hour: string | Date;
  acc_n: number;
  acc_ok: number;
  acc_lat_sum: number;
  prev_hour: string | Date | null;
  prev_n: number;
  prev_ok: number;
  prev_lat_sum: number;
  day_n: number;
  day_ok: number;
  day_lat: number;
  week_n: number;
  week_ok: number;
  week_lat: number;
};

const counts = (n: number, ok: number, latSum: number): Counts => ({ n: Number(n), ok: Number(ok), latSum: Number(latSum) });

/**
 * A page of visible statistics rows matching the filter, in the order asked,
 * at `now`, and the count of matching rows,
 * counted at most `REQUEST_STATISTICS_COUNT_AHEAD` past the page (`capped`:
 * there are at least that many). One prepared statement: the page (with the
 * rollups of its rows only) and the capped count; a page past the end counts
 * on its own.
 */
export async function selectStatisticsPage(
  db: Db,
  q: StatisticsFilter & StatisticsOrder & { startIndex: number; limit: number; now: Date },
): Promise<{ rows: StatisticRow[]; total: number; capped: boolean }> {
  const { dayFrom, weekFrom, until } = rollupHours(q.now);
  const cap = countCap(q, REQUEST_STATISTICS_COUNT_AHEAD);
  // Named prepared statements, one per filter shape: planning one costs more than running it
  // (about 10 ms against 2 at 100,000 rows), so each pooled connection plans it once.
  const statement = statementsOf(q, q);
  const values = {
    startIndex: q.startIndex,
    limit: q.limit,
    dayFrom: dayFrom.toISOString(),
    weekFrom: weekFrom.toISOString(),
    until: until.toISOString(),
    cap,
    hiddenClassIds: q.hiddenClassIds,
    machineId: q.machineId,
    classId: q.classId,
    from: q.from,
    to: q.to,
  };
  const result = await db.$client.query<Raw & { total: number }>(compiledQuery(statement.page, values));
  let total = result.rows[0]?.total;
  if (total === undefined) {
    // A page past the end has no row to carry the total.
    const counted = await db.$client.query<{ total: number }>(compiledQuery(statement.count, values));
    total = counted.rows[0]?.total ?? 0;
  }
  return {
    rows: result.rows.map((r) => ({
      machineId: r.machine_id,
      machineName: r.name,
      kind: KIND_OF_CODE[r.kind]!,
      url: r.url,
      lastAt: new Date(r.last_at),
      lastLatencyMs: r.last_latency_ms,
      lastOk: r.last_ok,
      accHour: new Date(r.acc_hour),
      acc: counts(r.acc_n, r.acc_ok, r.acc_lat_sum),
      prevHour: r.prev_hour === null ? null : new Date(r.prev_hour),
      prev: counts(r.prev_n, r.prev_ok, r.prev_lat_sum),
      dayRollups: counts(r.day_n, r.day_ok, r.day_lat),
      weekRollups: counts(r.week_n, r.week_ok, r.week_lat),
    })),
    total,
    capped: reachedCap(total, cap),
  };
}
