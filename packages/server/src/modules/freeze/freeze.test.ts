/**
 * The fleet freeze through the API (issue 25 point 5; `freeze.service.ts`):
 * admins only (403 to an operator and a viewer), a reason needed, audited both
 * ways, 409 to release a fleet that is not frozen, and while frozen an
 * UpdateSoftware waits with the freeze's words (the start rule), not other work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TFleetFreeze, TOperation } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.close());

const put = (as: string, body: unknown) => t.call({ method: 'PUT', url: '/fleet/freeze', as, body });

/** Queues `type` on an idle, managed, running machine of a class without standby, as the queue does; answers the operation's id. */
async function queued(type: 'UpdateSoftware' | 'SmokeTest'): Promise<number> {
  const { rows } = await t.database.db.execute<{ id: number }>(sql`
    insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode)
    select m.id, m.account_id, m.class_id, ot.id, ot.name, 'freeze-test', 60, m.operation_mode
    from machines m join accounts a on a.id = m.account_id join operation_types ot on ot.machine_class_id = m.class_id and ot.name = ${type}
    join mma_classes c on c.id = m.class_id
    where m.deleted_at is null and not m.terminate and m.managed and not m.manual_maintenance and m.operation_mode = 1 and not c.is_production
      and not exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)
      and exists (select 1 from cloud_instances ci where ci.machine_id = m.id and ci.active and ci.status = 'running' and ci.next_status is null)
      and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
      and not exists (select 1 from machine_tasks k where k.machine_id = m.id and k.status in ('New', 'Running'))
    order by m.id limit 1 returning id`);
  return rows[0]!.id;
}

describe('the fleet freeze', () => {
  it('is for admins only, needs a reason, holds UpdateSoftware alone, is audited, and releases', async () => {
    const before = (await t.call({ method: 'GET', url: '/fleet/freeze', as: 'viewer' })).json() as TFleetFreeze;
    expect(before.frozen).toBe(false);
    expect((await put('operator', { frozen: true, reason: 'No' })).statusCode).toBe(403);
    expect((await put('viewer', { frozen: true, reason: 'No' })).statusCode).toBe(403);
    const noReason = await put('admin', { frozen: true, reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0].propertyName).toBe('reason');
    expect((await put('admin', { frozen: false })).statusCode).toBe(409);

    const frozen = await put('admin', { frozen: true, reason: 'Black Friday' });
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json()).toMatchObject({ frozen: true, reason: 'Black Friday', frozenBy: 'admin' });
    expect((await t.call({ method: 'GET', url: '/fleet/freeze', as: 'viewer' })).json()).toMatchObject({ frozen: true, reason: 'Black Friday' });

    const update = await queued('UpdateSoftware');
    const smoke = await queued('SmokeTest');
    const op = async (id: number) => (await t.call({ method: 'GET', url: `/operations/${id}`, as: 'admin' })).json() as TOperation;
    expect((await op(update)).waiting).toEqual({
      reason: 'freeze',
      message: 'The fleet is frozen by admin (Black Friday): no UpdateSoftware starts until an admin releases the freeze',
    });
    expect((await op(smoke)).waiting?.reason).not.toBe('freeze');

    const released = await put('admin', { frozen: false });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({ frozen: false, releasedBy: 'admin', frozenBy: 'admin' });
    expect((await op(update)).waiting?.reason).not.toBe('freeze');
    const { rows } = await t.database.db.execute<{ action: string; user_name: string }>(
      sql`select action, user_name from audit_activities where action in ('FreezeFleet', 'ReleaseFleetFreeze') order by id`,
    );
    expect(rows).toEqual([
      { action: 'FreezeFleet', user_name: 'admin' },
      { action: 'ReleaseFleetFreeze', user_name: 'admin' },
    ]);
  });
});
