/**
 * SQL of the request statistics calls (spec 2 §2.10, §7; DESIGN §14): pages of
 * `request_statistics` rows with their machine and the day and week rollup
 * sums of the page's rows.
 *
 * Visibility (DESIGN §5): a row is listed when its machine and its account are
 * live and neither one's class is hidden. Order: machine id, then launcher
 * before site master (the primary key: a page walks it and stops).
 */
import { and, notInArray, sql, type SQL } from 'drizzle-orm';
import { REQUEST_STATISTICS_COUNT_AHEAD } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
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

function where(f: StatisticsFilter): SQL {
  return and(
    sql`m.deleted_at is null and a.deleted_at is null`,
    f.hiddenClassIds.length > 0 ? and(notInArray(sql`m.class_id`, f.hiddenClassIds), notInArray(sql`a.class_id`, f.hiddenClassIds)) : undefined,
    f.machineId !== undefined ? sql`rs.machine_id = ${f.machineId}` : undefined,
  )!;
}

const ids = (f: StatisticsFilter) => sql`
  select rs.machine_id, rs.kind from request_statistics rs
  join machines m on m.id = rs.machine_id join accounts a on a.id = m.account_id
  where ${where(f)} order by rs.machine_id, rs.kind`;

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
 * there are at least that many). Two statements on one plan each: the page
 * (with the rollups of its rows only) and the capped count.
 */
export async function selectStatisticsPage(
  db: DbOrTx,
  q: StatisticsFilter & { startIndex: number; limit: number; now: Date },
): Promise<{ rows: StatisticRow[]; total: number; capped: boolean }> {
  const { dayFrom, weekFrom, until } = rollupHours(q.now);
  const cap = q.startIndex + q.limit + REQUEST_STATISTICS_COUNT_AHEAD;
  const [page, counted] = await Promise.all([
    db.execute<Raw>(sql`
      select rs.machine_id, m.name, rs.kind, rs.url, rs.last_at, rs.last_latency_ms, rs.last_ok,
        rs.acc_hour, rs.acc_n, rs.acc_ok, rs.acc_lat_sum, rs.prev_hour, rs.prev_n, rs.prev_ok, rs.prev_lat_sum,
        h.day_n, h.day_ok, h.day_lat, h.week_n, h.week_ok, h.week_lat
      from (${ids(q)} offset ${q.startIndex} limit ${q.limit}) p
      join request_statistics rs on rs.machine_id = p.machine_id and rs.kind = p.kind
      join machines m on m.id = rs.machine_id
      cross join lateral (
        select coalesce(sum(n) filter (where hour >= ${dayFrom.toISOString()}::timestamptz), 0)::int as day_n,
          coalesce(sum(ok) filter (where hour >= ${dayFrom.toISOString()}::timestamptz), 0)::int as day_ok,
          coalesce(sum(lat_sum) filter (where hour >= ${dayFrom.toISOString()}::timestamptz), 0) as day_lat,
          coalesce(sum(n), 0)::int as week_n, coalesce(sum(ok), 0)::int as week_ok, coalesce(sum(lat_sum), 0) as week_lat
        from probe_hourly h
        where h.machine_id = rs.machine_id and h.kind = rs.kind
          and h.hour >= ${weekFrom.toISOString()}::timestamptz and h.hour <= ${until.toISOString()}::timestamptz
      ) h
      order by rs.machine_id, rs.kind`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from (${ids(q)} limit ${cap}) x`),
  ]);
  const total = counted.rows[0]?.n ?? 0;
  return {
    rows: page.rows.map((r) => ({
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
