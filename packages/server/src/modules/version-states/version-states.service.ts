/**
 * Version states of a machine (spec 2 §2.3 Version Info, §2.8 States viewer, §3
 * Version state, §7 Machines; DESIGN §12, §14):
 *
 * - `states`: the stored states, newest first; `current=true` only the current
 *   one, `current=false` only historical ones; `desired=true` the desired state
 *   as the only item (computed from `machines.desired_versions`, timestamped by
 *   the activity that last changed them, else now).
 * - `desired`: that desired state alone.
 * - `stateInfo`: the current state (Version Info); a machine with no stored state
 *   yet (a new machine, the scale seed) answers its current versions, `id` null.
 * - `viewer`: the States viewer's page (spec 2 §2.8) across every visible machine
 *   or of one: Current and Historical are the stored states, newest first (or
 *   oldest, `order` asc), within the time range; Desired is one computed state
 *   per machine, by machine id; each filtered by class and by component and
 *   branch (issue 24 point 7). Each row carries
 *   its machine's class and backups; the total is capped (`VIEWER_COUNT_AHEAD`).
 *   A machine id that is unknown or hidden answers an empty page (a filter,
 *   not a path).
 *
 * Visibility as for machines: a machine that is unknown, deleted or hidden
 * (Customer Production without group CustomerProductionAccess) is 404.
 * Reading needs no permission beyond being signed in.
 */
import { VIEWER_COUNT_AHEAD, type TComponentVersion, type TVersionState, type TVersionStatesResponse, type TVersionStatesViewerPage } from '@fleet/contracts';
import type { z } from 'zod';
import type { ZVersionStatesQuery, ZVersionStatesViewerQuery } from '@fleet/contracts';
import { countCap } from '../../db/capped-count.js';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { sharedRead } from '../../lib/coalesce.js';
import { notFound } from '../../lib/problem.js';
import { jsonText } from '../../lib/json-text.js';
import { findVisibleMachine } from '../machines/machines.repository.js';
import { selectCommitsOf, stateComponents } from '../../engine/desired-state/desired-state.repository.js';
import * as repo from './version-states.repository.js';

type Machine = NonNullable<Awaited<ReturnType<typeof findVisibleMachine>>>['machine'];

export interface VersionStateService {
  states(opts: { principal: Principal; machineId: number; query: z.output<typeof ZVersionStatesQuery> }): Promise<TVersionStatesResponse>;
  desired(opts: { principal: Principal; machineId: number }): Promise<TVersionState>;
  stateInfo(opts: { principal: Principal; machineId: number }): Promise<TVersionState>;
  viewer(opts: { principal: Principal; query: z.output<typeof ZVersionStatesViewerQuery> }): Promise<TVersionStatesViewerPage>;
}

export function createVersionStateService({ db }: { db: Db }): VersionStateService {
  /** A page as JSON text; the consoles polling the same page share each read (lib/coalesce.ts). */
  const viewerPageText = sharedRead(repo.selectViewerPageText, db);

  async function visible(principal: Principal, machineId: number): Promise<Machine> {
    const found = await findVisibleMachine(db, { id: machineId, hiddenClassIds: hiddenClassIds(principal) });
    if (!found) throw notFound(`Machine ${machineId}`);
    return found.machine;
  }

  /** A state computed from a version map (not stored). */
  async function computed(machine: Machine, versions: Record<string, string>, flags: { desired: boolean; current: boolean }, timestamp: Date): Promise<TVersionState> {
    const commits: Map<string, TComponentVersion> = await selectCommitsOf(db, versions);
    return {
      id: null,
      machine: { id: machine.id, name: machine.name },
      ...flags,
      timestamp: timestamp.toISOString(),
      components: stateComponents(commits),
      operationId: null,
    };
  }

  async function desiredOf(machine: Machine): Promise<TVersionState> {
    const changedAt = machine.desiredActivityId ? await repo.selectActivityTime(db, machine.desiredActivityId) : undefined;
    return computed(machine, machine.desiredVersions, { desired: true, current: false }, changedAt ?? new Date());
  }

  const stored = (machine: Machine, row: repo.VersionStateRow): TVersionState => ({
    id: row.id,
    machine: { id: machine.id, name: machine.name },
    desired: false,
    current: row.current,
    timestamp: row.timestamp.toISOString(),
    components: row.components,
    operationId: row.operationId,
  });

  return {
    async states({ principal, machineId, query }) {
      const machine = await visible(principal, machineId);
      if (query.desired) {
        return { items: query.startIndex === 0 ? [await desiredOf(machine)] : [], totalItems: 1 };
      }
      const page = await repo.selectStatePage(db, { machineId, current: query.current, startIndex: query.startIndex, limit: query.limit });
      return { items: page.rows.map((row) => stored(machine, row)), totalItems: page.total };
    },

    async desired({ principal, machineId }) {
      return desiredOf(await visible(principal, machineId));
    },

    async stateInfo({ principal, machineId }) {
      const machine = await visible(principal, machineId);
      const { rows } = await repo.selectStatePage(db, { machineId, current: true, startIndex: 0, limit: 1 });
      const row = rows[0];
      return row ? stored(machine, row) : computed(machine, machine.currentVersions, { desired: false, current: true }, machine.createdAt);
    },

    async viewer({ principal, query }) {
      const cap = countCap(query, VIEWER_COUNT_AHEAD);
      return jsonText(
        await viewerPageText({
          hiddenClassIds: hiddenClassIds(principal),
          machineId: query.machineId,
          classId: query.classId,
          component: query.component,
          branch: query.branch,
          from: query.from,
          to: query.to,
          order: query.order,
          startIndex: query.startIndex,
          limit: query.limit,
          state: query.state,
          cap,
        }),
      );
    },
  };
}
