/**
 * Request statistics (spec 2 §2.10, §3 Request statistic, §7; DESIGN §14): what
 * the probe worker measured for each launcher and site master URL, with the
 * hour, day and week figures computed at the time of the call
 * (`engine/probes/windows.ts`).
 *
 * Visibility is the machines' (DESIGN §5): rows of Customer Production
 * machines or accounts are left out without group CustomerProductionAccess,
 * and `GET /machines/{id}/request-statistics` of such a machine is 404 like an
 * unknown id.
 */
import type { TMachineRequestStatisticsResponse, TRequestStatistic, TRequestStatisticsPage } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { coalesce } from '../../lib/coalesce.js';
import { notFound } from '../../lib/problem.js';
import { findVisibleMachine } from '../machines/machines.repository.js';
import { windowFigures } from '../../engine/probes/windows.js';
import { selectStatisticsPage, type StatisticRow, type StatisticsFilter, type StatisticsOrder } from './request-statistics.repository.js';

type Page = { startIndex: number; limit: number };
/** The viewer's filter as the route validated it (visibility is the principal's). */
type StatisticsFilterQuery = Omit<StatisticsFilter, 'hiddenClassIds'>;

export interface RequestStatisticsService {
  /**
   * The viewer's page: every visible URL, or one machine's (`machineId`),
   * filtered by the machine's class, the last probe's outcome and time, in
   * machine id order or sorted by machine name or last probe (issue 24 point
   * 7); `totalItems` counted to the end of the block of 100 rows the page
   * starts in, plus a page (db/capped-count.ts).
   */
  list(o: { principal: Principal; query: Page & StatisticsFilterQuery & StatisticsOrder }): Promise<TRequestStatisticsPage>;
  /** One machine's URLs; 404 when the machine is unknown or hidden. */
  machine(o: { principal: Principal; machineId: number; query: Page }): Promise<TMachineRequestStatisticsResponse>;
}

/** The API item of a row at `now`. */
export function toStatistic(r: StatisticRow, now: Date): TRequestStatistic {
  return {
    machineId: r.machineId,
    machineName: r.machineName,
    kind: r.kind,
    url: r.url,
    lastUpdate: r.lastAt.toISOString(),
    lastLatency: r.lastLatencyMs,
    lastSuccess: r.lastOk,
    ...windowFigures(r, now),
  };
}

/** `now` is the clock the hour, day and week windows end at (a test's own). */
export function createRequestStatisticsService({ db, now = () => new Date() }: { db: Db; now?: () => Date }): RequestStatisticsService {
  /**
   * A page with the windows ending when its read begins; the consoles polling
   * the same page share each read (lib/coalesce.ts), so the clock is read by
   * the read, not by the callers it answers.
   */
  const readPage = coalesce(
    async (q: Omit<Parameters<typeof selectStatisticsPage>[1], 'now'>) => {
      const at = now();
      const page = await selectStatisticsPage(db, { ...q, now: at });
      return { items: page.rows.map((r) => toStatistic(r, at)), totalItems: page.total, totalCapped: page.capped };
    },
    (q) => JSON.stringify(q),
  );
  return {
    list: ({ principal, query }) => readPage({ ...query, hiddenClassIds: hiddenClassIds(principal) }),
    async machine({ principal, machineId, query }) {
      const hidden = hiddenClassIds(principal);
      if (!(await findVisibleMachine(db, { id: machineId, hiddenClassIds: hidden }))) throw notFound(`Machine ${machineId}`);
      const { items, totalItems } = await readPage({ ...query, machineId, hiddenClassIds: hidden });
      return { items, totalItems };
    },
  };
}
