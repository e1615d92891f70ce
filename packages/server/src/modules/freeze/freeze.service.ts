/**
 * The fleet freeze (issue 25 point 5): `GET /fleet/freeze` for every signed-in
 * user (the console's banner), `PUT /fleet/freeze` for admins only (permission
 * `admin`, or `write` with group CustomerProductionAccess; 403 otherwise),
 * freezing with a reason or releasing, audited FreezeFleet or ReleaseFleetFreeze.
 *
 * While frozen, no UpdateSoftware starts (the start rule `freeze`,
 * `engine/operations/start-rules.ts`, says who froze it and why) and no
 * rollout releases a new wave or part of one (`engine/rollouts/engine.ts`);
 * what runs goes on. Freezing a frozen fleet again changes its reason;
 * releasing a fleet that is not frozen is 409.
 */
import { sql } from 'drizzle-orm';
import { sessionRoles, type TFleetFreeze, type TFleetFreezeRequest } from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { conflict, forbidden } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { OPERATION_QUEUED_CHANNEL } from '../../engine/operations/operations.repository.js';
import { ROLLOUTS_CHANGED_CHANNEL } from '../../engine/rollouts/rollouts.repository.js';

export interface FreezeService {
  get(): Promise<TFleetFreeze>;
  set(o: { principal: Principal; request: TFleetFreezeRequest }): Promise<TFleetFreeze>;
}

type FreezeRow = { frozen: boolean; reason: string | null; frozenBy: string | null; frozenAt: Date | null; releasedBy: string | null; releasedAt: Date | null };

async function read(db: DbOrTx, lock = false): Promise<TFleetFreeze> {
  const { rows } = await db.execute<FreezeRow>(sql`
    select frozen, reason, frozen_by as "frozenBy", frozen_at as "frozenAt", released_by as "releasedBy", released_at as "releasedAt"
    from fleet_freeze where id = 1 ${lock ? sql`for update` : sql``}`);
  const r = rows[0];
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return r
    ? { frozen: r.frozen, reason: r.reason, frozenBy: r.frozenBy, frozenAt: iso(r.frozenAt), releasedBy: r.releasedBy, releasedAt: iso(r.releasedAt) }
    : { frozen: false, reason: null, frozenBy: null, frozenAt: null, releasedBy: null, releasedAt: null };
}

export function createFreezeService({ db, audit }: { db: Db; audit: AuditService }): FreezeService {
  return {
    get: () => read(db),
    async set({ principal, request }) {
      if (!sessionRoles(principal.permissions, principal.groups).includes('admin')) {
        throw forbidden('Only an admin (write with group CustomerProductionAccess) freezes or releases the fleet');
      }
      return db.transaction(async (tx) => {
        await tx.execute(sql`insert into fleet_freeze (id) values (1) on conflict (id) do nothing`);
        const before = await read(tx, true);
        if (!request.frozen && !before.frozen) throw conflict('The fleet is not frozen');
        if (request.frozen) {
          await tx.execute(sql`update fleet_freeze set frozen = true, reason = ${request.reason}, frozen_by = ${principal.username}, frozen_at = now() where id = 1`);
        } else {
          await tx.execute(sql`update fleet_freeze set frozen = false, released_by = ${principal.username}, released_at = now() where id = 1`);
        }
        await audit.record(tx, {
          action: request.frozen ? 'FreezeFleet' : 'ReleaseFleetFreeze',
          user: principal.username,
          params: request.frozen ? { reason: request.reason } : { reason: before.reason, frozenBy: before.frozenBy },
          changes: [
            { entityName: 'Fleet', propertyName: 'frozen', oldValue: before.frozen, newValue: request.frozen },
            ...(request.frozen && before.reason !== request.reason ? [{ entityName: 'Fleet', propertyName: 'reason', oldValue: before.reason, newValue: request.reason }] : []),
          ],
        });
        // Agents and rollout engines hear of a release at once.
        if (!request.frozen) await tx.execute(sql`select pg_notify(${OPERATION_QUEUED_CHANNEL}, ''), pg_notify(${ROLLOUTS_CHANGED_CHANNEL}, '')`);
        return read(tx);
      });
    },
  };
}
