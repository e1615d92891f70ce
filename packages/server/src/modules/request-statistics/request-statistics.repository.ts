/**
 * SQL of the request statistics calls (spec 2 §2.10, §7; DESIGN §14): pages of
 * `request_statistics` rows with their machine and the day and week rollup
 * sums of the page's rows.
 *
 * Visibility (DESIGN §5): a row is listed when its machine and its account are
 * live and neither one's class is hidden. Order: machine id, then launcher
 * before site master (the primary key: a page walks it and stops).
 */
import { REQUEST_STATISTICS_COUNT_AHEAD } from '@fleet/contracts';
import { countCap } from '../../db/capped-count.js';
import type { Db } from '../../db/client.js';
import { KIND_OF_CODE } from '../../engine/probes/probes.repository.js';
import type { Counts, StatisticFacts } from '../../engine/probes/windows.js';
import { rollupHours } from '../../engine/probes/windows.js';
import type { TProbeKind } from '@fleet/contracts';

export interface StatisticsFilter {
  hiddenClassIds: number[];
  machineId?: number;
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
 * The ids of the matching rows in page order, as SQL text whose own parameters
 * (the hidden class ids, then the machine id, each only when used) are
 * numbered from `$first`; `values` are theirs.
 */
function matching(f: StatisticsFilter, first: number): { text: string; values: (number | number[])[] } {
  const conditions = ['m.deleted_at is null', 'a.deleted_at is null'];
  const values: (number | number[])[] = [];
  if (f.hiddenClassIds.length > 0) {
    values.push(f.hiddenClassIds);
    conditions.push(`m.class_id <> all($${first}::int[])`, `a.class_id <> all($${first}::int[])`);
  }
  if (f.machineId !== undefined) {
    values.push(f.machineId);
    conditions.push(`rs.machine_id = $${first + values.length - 1}::int`);
  }
  const text = `select rs.machine_id, rs.kind from request_statistics rs
    join machines m on m.id = rs.machine_id join accounts a on a.id = m.account_id
    where ${conditions.join(' and ')} order by rs.machine_id, rs.kind`;
  return { text, values };
}

/** The name of the prepared statements of a filter's shape (hidden classes or not, one machine or not). */
const shape = (f: StatisticsFilter) => `request-statistics-${f.hiddenClassIds.length > 0 ? 'hidden' : 'all'}-${f.machineId !== undefined ? 'machine' : 'any'}`;

/**
 * The page statement: `$1` startIndex, `$2` limit, `$3` the day's first rollup
 * hour, `$4` the week's, `$5` the last, `$6` the count cap, then the filter's.
 * The total is an uncorrelated scalar subquery (evaluated once) beside the
 * page's rows, so a page is one round trip.
 */
function pageText(ids: string): string {
  return `
    select rs.machine_id, m.name, rs.kind, rs.url, rs.last_at, rs.last_latency_ms, rs.last_ok,
      rs.acc_hour, rs.acc_n, rs.acc_ok, rs.acc_lat_sum, rs.prev_hour, rs.prev_n, rs.prev_ok, rs.prev_lat_sum,
      h.day_n, h.day_ok, h.day_lat, h.week_n, h.week_ok, h.week_lat,
      (select count(*)::int from (${ids} limit $6) x) as total
    from (${ids} offset $1 limit $2) p
    join request_statistics rs on rs.machine_id = p.machine_id and rs.kind = p.kind
    join machines m on m.id = rs.machine_id
    cross join lateral (
      select coalesce(sum(n) filter (where hour >= $3::timestamptz), 0)::int as day_n,
        coalesce(sum(ok) filter (where hour >= $3::timestamptz), 0)::int as day_ok,
        coalesce(sum(lat_sum) filter (where hour >= $3::timestamptz), 0) as day_lat,
        coalesce(sum(n), 0)::int as week_n, coalesce(sum(ok), 0)::int as week_ok, coalesce(sum(lat_sum), 0) as week_lat
      from probe_hourly h
      where h.machine_id = rs.machine_id and h.kind = rs.kind and h.hour >= $4::timestamptz and h.hour <= $5::timestamptz
    ) h
    order by rs.machine_id, rs.kind`;
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
 * A page of visible statistics rows at `now` and the count of matching rows,
 * counted at most `REQUEST_STATISTICS_COUNT_AHEAD` past the page (`capped`:
 * there are at least that many). One prepared statement: the page (with the
 * rollups of its rows only) and the capped count; a page past the end counts
 * on its own.
 */
export async function selectStatisticsPage(
  db: Db,
  q: StatisticsFilter & { startIndex: number; limit: number; now: Date },
): Promise<{ rows: StatisticRow[]; total: number; capped: boolean }> {
  const { dayFrom, weekFrom, until } = rollupHours(q.now);
  const cap = countCap(q, REQUEST_STATISTICS_COUNT_AHEAD);
  // Prepared by name, one statement per filter shape: planning it costs more than running it
  // (about 10 ms against 2 at 100,000 rows), so each pooled connection plans it once.
  const page = matching(q, 7);
  const result = await db.$client.query<Raw & { total: number }>({
    name: `${shape(q)}-page`,
    text: pageText(page.text),
    values: [q.startIndex, q.limit, dayFrom.toISOString(), weekFrom.toISOString(), until.toISOString(), cap, ...page.values],
  });
  let total = result.rows[0]?.total;
  if (total === undefined) {
    // A page past the end has no row to carry the total.
    const count = matching(q, 2);
    const counted = await db.$client.query<{ total: number }>({
      name: `${shape(q)}-count`,
      text: `select count(*)::int as total from (${count.text} limit $1) x`,
      values: [cap, ...count.values],
    });
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
    capped: total >= cap,
  };
}
