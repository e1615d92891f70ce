/**
 * Approvals at the rollout level (issue 25 point 1; `approvals.ts`, `README.md`
 * Approvals; fixtures in `rollouts.fixtures.ts`), through the API with the real
 * software update, the deploy controller and the simulated agent: a rollout
 * over Customer Production machines waits for Approve wave at each wave (its
 * targets AwaitingApproval, no wave timeout meanwhile), a second user approves
 * it (the starter gets 403, an operator without the group 404, a single
 * operation's Proceed 409), Reject and an approval that timed out halt it and
 * cancel what has not started, and `perWave` holds a non-production wave too.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TOperation, TRollout, TRolloutTarget } from '@fleet/contracts';
import { rolloutPass } from './engine.js';
import { SOFTWARE_UPDATE_APPLIER } from './software-update-applier.js';
import { sleep, useRolloutApp } from './rollouts.fixtures.js';

const f = useRolloutApp();
const { db, events, get, targetsOf, launcherVersionForAll, freshMachines } = f;

/** `n` Customer Production machines (a production class) ready to deploy: managed, running, idle, not in Panic or ANOMALY. */
async function productionMachines(n: number): Promise<number[]> {
  const { rows } = await db().execute<{ id: number }>(sql`
    select m.id from machines m join accounts a on a.id = m.account_id
    where m.class_id = 5 and m.deleted_at is null and not m.terminate and a.deleted_at is null and not a.is_template
      and m.managed and not m.manual_maintenance and not m.needs_admin and not m.obsolete and m.operation_mode = 1
      and not exists (select 1 from mma_instances mi where mi.class_id = m.class_id and mi.standby)
      and exists (select 1 from cloud_instances ci where ci.machine_id = m.id and ci.active and ci.status = 'running' and ci.next_status is null)
      and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
      and not exists (select 1 from machine_tasks k where k.machine_id = m.id and k.status in ('New', 'Running'))
      and not exists (select 1 from rollout_targets rt where rt.target_id = m.id)
    order by m.id limit ${n}`);
  if (rows.length < n) throw new Error(`only ${rows.length} production machines ready`);
  return rows.map((r) => r.id);
}

/** Starts a rollout of the oldest launcher version to `ids` through the API as `as`; answers the response. */
async function startUpdate(ids: number[], rollout: Record<string, unknown>, as = 'admin') {
  const version = await launcherVersionForAll(ids);
  return f.t.call({ method: 'POST', url: '/software-update/update-machines', as, body: { machines: ids, launcherVersionMode: 'Select', launcherVersion: version, rollout } });
}

/** Runs rollout passes (the real software update) until `done(rollout)`, at most 30 s; `now` moves the engine's clock. */
async function passUntil(id: number, done: (r: TRollout) => boolean, now?: () => Date): Promise<TRollout> {
  const end = Date.now() + 30_000;
  for (;;) {
    await rolloutPass({ db: db(), updates: SOFTWARE_UPDATE_APPLIER, events, now });
    const r = await get(id);
    if (done(r)) return r;
    if (Date.now() > end) throw new Error(`rollout ${id}: ${r.status} ${JSON.stringify(r.waves.map((w) => w.counts))}`);
    await sleep(100);
  }
}

const decide = (id: number, wave: number, decision: 'approve' | 'reject', as: string, reason = 'Checked the release notes') =>
  f.t.call({ method: 'POST', url: `/rollouts/${id}/waves/${wave}/${decision}`, as, body: { reason } });

/** The UpdateSoftware operations of machine `id`, newest first, as the API lists them. */
async function updatesOf(machineId: number): Promise<TOperation[]> {
  const res = await f.t.call({ method: 'GET', url: `/machines/${machineId}/operations`, as: 'admin', query: { limit: '50' } });
  expect(res.statusCode, res.body).toBe(200);
  const items = (res.json() as { items: TOperation[] }).items;
  return items.filter((o) => o.typeName === "UpdateSoftware");
}

const awaiting = (wave: number) => (r: TRollout) => r.waves[wave]?.counts.AwaitingApproval === r.waves[wave]?.size;

describe('a rollout over production machines', () => {
  it('waits for Approve wave at each wave: a second user approves, the starter is refused, and it completes', async () => {
    const ids = await productionMachines(2);
    const res = await startUpdate(ids, { waves: [{ kind: 'count', value: 1 }], waveTimeoutMinutes: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { rolloutId: number }).rolloutId;
    expect((await get(id)).plan.approval).toBe('perWave');

    const waiting = await passUntil(id, awaiting(0));
    expect(waiting.waves[0]).toMatchObject({ status: 'AwaitingApproval', approval: { required: true, decision: null } });
    expect(waiting.counts).toMatchObject({ AwaitingApproval: 1, Pending: 1 });
    const [target] = (await targetsOf(id)).filter((t) => t.wave === 0);
    expect(target).toMatchObject({ state: 'AwaitingApproval', detail: 'Waiting for the approval of wave 1' });
    // The operation says what it waits for, and its own Proceed is refused: the wave is approved as one.
    const [op] = await updatesOf(target!.id);
    expect(op).toMatchObject({ pending: true, status: null });
    expect(op!.waiting?.message).toBe(
      `Waiting for the approval of wave 1 of rollout ${id}: a user with write permission other than its starter can Approve wave or Reject on the rollout page`,
    );
    const proceed = await f.t.call({ method: 'PATCH', url: `/machines/${target!.id}/operations/${op!.id}`, as: 'lead', body: { params: 'PROCEED' } });
    expect(proceed.statusCode, proceed.body).toBe(409);
    expect(proceed.json().detail).toBe(`Operation ${op!.id} waits for the approval of wave 1 of rollout ${id}: approve the wave on the rollout page`);

    // Two hours later (wave timeout 1 minute) nothing timed out: the wave's clock waits for its approval.
    const later = new Date(Date.now() + 2 * 3600_000);
    expect((await passUntil(id, () => true, () => later)).counts).toMatchObject({ AwaitingApproval: 1, Failed: 0 });

    const starter = await decide(id, 1, 'approve', 'admin');
    expect(starter.statusCode).toBe(403);
    expect(starter.json().detail).toMatch(/^ROLLOUT_REQUIRE_SECOND_APPROVER: admin started rollout \d+/);
    expect((await decide(id, 1, 'approve', 'operator')).statusCode).toBe(404);
    const noReason = await decide(id, 1, 'approve', 'lead', '  ');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0].propertyName).toBe('reason');
    expect((await decide(id, 2, 'approve', 'lead')).statusCode).toBe(409);
    expect((await f.t.call({ method: 'POST', url: `/rollouts/${id}/waves/21/approve`, as: 'lead', body: { reason: 'x' } })).statusCode).toBe(400);

    // The approval names the machine in its notification: a waiting claim (an MMA in process) looks again at once.
    const listener = await db().$client.connect();
    const payloads: string[] = [];
    listener.on('notification', (n) => payloads.push(n.payload ?? ''));
    await listener.query('listen fleet_operation_queued');
    const approved = await decide(id, 1, 'approve', 'lead');
    expect(approved.statusCode, approved.body).toBe(200);
    await expect.poll(() => payloads.flatMap((p) => p.split(',')).map(Number)).toContain(target!.id);
    await listener.query('unlisten *');
    listener.release();
    expect((approved.json() as TRollout).waves[0]!.approval).toMatchObject({ required: true, decision: 'Approved', decidedBy: 'lead', reason: 'Checked the release notes' });
    const { rows: audit } = await db().execute<{ user_name: string; params: { wave: number; operationIds: number[]; reason: string } }>(sql`
      select user_name, params from audit_activities where action = 'RolloutWaveApproved' and (params->>'rolloutId')::int = ${id}`);
    expect(audit).toEqual([{ user_name: 'lead', params: expect.objectContaining({ wave: 1, operationIds: [op!.id], reason: 'Checked the release notes' }) }]);
    // Nothing waits any more: a second approval has nothing to approve.
    expect((await decide(id, 1, 'approve', 'lead')).statusCode).toBe(409);

    // Wave 2 waits for its own approval, then the rollout completes.
    await passUntil(id, awaiting(1));
    expect((await decide(id, 2, 'approve', 'lead')).statusCode).toBe(200);
    const done = await passUntil(id, (r) => r.status !== 'Running');
    expect(done.status, done.reason ?? '').toBe('Completed');
    expect(done.counts).toMatchObject({ Succeeded: 2, Failed: 0 });
    for (const machineId of ids) expect((await updatesOf(machineId))[0]).toMatchObject({ status: 'SUCCESS', decision: 'PROCEED', decidedBy: 'lead' });
  }, 90_000);

  it('refuses approval none over production machines (422 naming the field)', async () => {
    const ids = await productionMachines(1);
    const res = await startUpdate(ids, { approval: 'none' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([expect.objectContaining({ propertyName: 'rollout.approval' })]);
  });

  it('Reject cancels what has not started, fails the waiting targets and halts', async () => {
    const ids = await productionMachines(1);
    const id = ((await startUpdate(ids, { waves: [] })).json() as { rolloutId: number }).rolloutId;
    await passUntil(id, awaiting(0));
    const res = await decide(id, 1, 'reject', 'lead', 'Wrong build');
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as TRollout;
    expect(r).toMatchObject({ status: 'Halted', reason: 'Wave 1 was rejected by lead: Wrong build' });
    expect(r.waves[0]!.approval).toMatchObject({ decision: 'Rejected', decidedBy: 'lead', reason: 'Wrong build' });
    expect((await targetsOf(id)).map((t: TRolloutTarget) => [t.state, t.detail])).toEqual([['Failed', 'Rejected by lead: Wrong build']]);
    // The agent ends the cancelled operation with the rollout's reason; nothing deploys later.
    await expect.poll(async () => (await updatesOf(ids[0]!))[0]?.status, { timeout: 15_000 }).toBe('FAILURE');
    const { rows } = await db().execute<{ output: string; decided_by: string }>(sql`
      select output, decided_by from operations where machine_id = ${ids[0]!} and type_name = 'UpdateSoftware' order by id desc limit 1`);
    expect(rows[0]!.decided_by).toBe('Rollout');
    expect(rows[0]!.output).toContain(`Cancelled: rollout ${id} halted`);
    expect((await decide(id, 1, 'approve', 'lead')).statusCode).toBe(409);
  }, 60_000);

  it('rejects a wave whose approval timed out, as user Rollout', async () => {
    const ids = await productionMachines(1);
    const id = ((await startUpdate(ids, { waves: [], approvalTimeoutMinutes: 60 })).json() as { rolloutId: number }).rolloutId;
    await passUntil(id, awaiting(0));
    const r = await passUntil(id, (x) => x.status === 'Halted', () => new Date(Date.now() + 61 * 60_000));
    expect(r.reason).toBe('Wave 1 was rejected by Rollout: Approval timed out');
    expect(r.waves[0]!.approval).toMatchObject({ decision: 'Rejected', decidedBy: 'Rollout' });
  }, 60_000);
});

describe('approval perWave outside production', () => {
  it('holds a wave of non-production machines for its approval too, and abort cancels it', async () => {
    const ids = await freshMachines(1);
    const res = await startUpdate(ids, { waves: [], approval: 'perWave' }, 'operator');
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { rolloutId: number }).rolloutId;
    await passUntil(id, awaiting(0));
    expect((await updatesOf(ids[0]!))[0]).toMatchObject({ pending: true });
    const aborted = await f.t.call({ method: 'POST', url: `/rollouts/${id}/abort`, as: 'admin' });
    expect(aborted.statusCode, aborted.body).toBe(200);
    expect((await targetsOf(id)).map((t) => [t.state, t.detail])).toEqual([['Failed', `Cancelled: rollout ${id} aborted`]]);
    await expect.poll(async () => (await updatesOf(ids[0]!))[0]?.status, { timeout: 15_000 }).toBe('FAILURE');
    // Nothing deploys the aborted rollout's versions again, not even as a retry.
    const cancelled = (await updatesOf(ids[0]!))[0]!;
    await f.deploys.pass();
    await f.deploys.pass();
    expect((await updatesOf(ids[0]!))[0]!.id).toBe(cancelled.id);

    // A later rollout to the same versions is a new request: the earlier cancel does not hold it.
    const again = await startUpdate(ids, { waves: [] }, 'operator');
    expect(again.statusCode, again.body).toBe(200);
    const next = await passUntil((again.json() as { rolloutId: number }).rolloutId, (r) => r.status !== 'Running');
    expect(next.status, next.reason ?? '').toBe('Completed');
    expect(next.counts).toMatchObject({ Succeeded: 1 });
    expect((await updatesOf(ids[0]!))[0]).toMatchObject({ status: 'SUCCESS' });
  }, 60_000);
});
