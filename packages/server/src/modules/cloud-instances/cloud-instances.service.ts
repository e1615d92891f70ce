/**
 * Cloud instances of machines (spec 2 §2.9 Cloud instances viewer, §3 Cloud
 * instance, §7): `list` across every visible machine (or the one `machineId`, a
 * filter: an unknown or hidden id answers an empty page) and `ofMachine` for
 * one machine (404 when it is unknown, deleted or hidden). Newest first; the
 * total is counted at most `VIEWER_COUNT_AHEAD` rows past the page
 * (`totalCapped`). Reading needs no permission beyond being signed in.
 */
import { VIEWER_COUNT_AHEAD, type TCloudInstancesPage, type ZCloudInstancesQuery } from '@fleet/contracts';
import type { z } from 'zod';
import { countCap } from '../../db/capped-count.js';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { sharedRead } from '../../lib/coalesce.js';
import { notFound } from '../../lib/problem.js';
import { findVisibleMachine } from '../machines/machines.repository.js';
import { jsonText } from '../../lib/json-text.js';
import { selectCloudInstancePageText } from './cloud-instances.repository.js';

type Page = { startIndex: number; limit: number };
type ListQuery = Page & Partial<Omit<z.output<typeof ZCloudInstancesQuery>, 'startIndex' | 'limit'>>;

export interface CloudInstanceService {
  /** The viewer's page: `query` as the route validated it (filters class, state now, active; order by launch). */
  list(o: { principal: Principal; query: ListQuery }): Promise<TCloudInstancesPage>;
  ofMachine(o: { principal: Principal; machineId: number; query: Page }): Promise<TCloudInstancesPage>;
}

export function createCloudInstanceService({ db }: { db: Db }): CloudInstanceService {
  /** A page as JSON text; the consoles polling the same page share each read (lib/coalesce.ts). */
  const pageText = sharedRead(selectCloudInstancePageText, db);

  async function page(principal: Principal, query: ListQuery): Promise<TCloudInstancesPage> {
    const cap = countCap(query, VIEWER_COUNT_AHEAD);
    return jsonText(await pageText({ ...query, cap, hiddenClassIds: hiddenClassIds(principal) }));
  }

  return {
    list: ({ principal, query }) => page(principal, query),

    async ofMachine({ principal, machineId, query }) {
      const found = await findVisibleMachine(db, { id: machineId, hiddenClassIds: hiddenClassIds(principal) });
      if (!found) throw notFound(`Machine ${machineId}`);
      return page(principal, { ...query, machineId });
    },
  };
}
