/**
 * Notification delivery (issue 11 point 4; spec 2 §3 Pending message, §7
 * Notifications): a pending message is delivered when its machine runs and is
 * managed, exactly once whoever delivers at the same time, with the delivery
 * time of the agent's clock, and then leaves `GET /notification/messages`.
 * Machines that are stopped, unmanaged, without an instance or deleted keep
 * their messages pending until that changes (level-driven).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { TPendingMessagesResponse } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { machines, notificationMessages } from '../../db/schema.js';
import { createSimulatedCloud, type SimulatedCloud } from '../../engine/cloud/simulated.js';
import { deliverPendingMessages } from '../../engine/operations/agent-pass.repository.js';
import { createOperationEngine } from '../../engine/operations/agent.js';
import { createSimulatedAgent } from '../../engine/operations/simulated-agent.js';
import { createTaskEvents } from '../../engine/push/events.js';

let t: TestApp;
let cloud: SimulatedCloud;
beforeAll(async () => {
  t = await startTestApp();
  cloud = createSimulatedCloud({ db: t.database.db, delayMs: 0 });
  // The demo seed's own pending messages (if any) are not this test's: deliver them out of the way.
  await t.database.db.update(notificationMessages).set({ deliveredAt: new Date('2020-01-01T00:00:00Z') });
});
afterAll(() => t.close());

type State = 'running' | 'stopped' | 'none';

/** A machine of a new account with its instance in `state`. */
async function machine(state: State, values: Partial<typeof machines.$inferInsert> = {}) {
  const db = t.database.db;
  const account = await insertAccount(db, { name: `Notify ${Math.random().toString(36).slice(2, 8)}` });
  const m = await insertMachine(db, { accountId: account.id, instanceTypeId: 2, isLauncher: true, ...values });
  let cloudId: string | undefined;
  if (state !== 'none') {
    cloudId = (await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `notify-${m.id}` })).cloudId;
    await cloud.describe(cloudId);
    if (state === 'stopped') {
      await cloud.stop(cloudId);
      await cloud.describe(cloudId);
    }
  }
  return { ...m, cloudId };
}

async function send(machineIds: number[], title: string): Promise<void> {
  const res = await t.call({ method: 'POST', url: '/notification/send', as: 'admin', body: { machines: machineIds, title, body: 'Maintenance tonight' } });
  expect(res.statusCode, res.body).toBe(200);
}

const pendingTitles = async (machineId: number) =>
  ((await t.call({ method: 'GET', url: '/notification/messages', as: 'admin', query: { machineId: String(machineId), limit: '100' } })).json() as TPendingMessagesResponse).items.map(
    (m) => m.title,
  );

const rowsOf = (machineIds: number[]) =>
  t.database.db.select().from(notificationMessages).where(inArray(notificationMessages.machineId, machineIds)).orderBy(notificationMessages.id);

describe('notification delivery', () => {
  it('delivers the messages of running managed machines once, at the given time; the others stay pending', async () => {
    const running = await machine('running');
    const unmanaged = await machine('running', { managed: false });
    const stopped = await machine('stopped');
    const none = await machine('none');
    const all = [running, unmanaged, stopped, none];
    await send(all.map((m) => m.id), 'First');
    await send([running.id], 'Second');
    expect(await pendingTitles(running.id)).toEqual(['Second', 'First']);

    const at = new Date('2031-05-06T07:08:09.123Z');
    const delivered = await deliverPendingMessages(t.database.db, { at, limit: 1000 });
    expect(delivered.filter((d) => all.some((m) => m.id === d.machineId)).map((d) => d.machineId)).toEqual([running.id, running.id]);
    const rows = await rowsOf(all.map((m) => m.id));
    for (const row of rows) {
      expect(row.deliveredAt?.toISOString() ?? null, `machine ${row.machineId}`).toBe(row.machineId === running.id ? at.toISOString() : null);
    }
    // The list shows pending messages only.
    expect(await pendingTitles(running.id)).toEqual([]);
    expect(await pendingTitles(stopped.id)).toEqual(['First']);

    // Again: nothing more for the running machine, and its delivery time stays.
    const again = await deliverPendingMessages(t.database.db, { at: new Date('2032-01-01T00:00:00Z'), limit: 1000 });
    expect(again.filter((d) => all.some((m) => m.id === d.machineId))).toEqual([]);
    expect((await rowsOf([running.id])).map((r) => r.deliveredAt?.toISOString())).toEqual([at.toISOString(), at.toISOString()]);
  });

  it('is level-driven: a machine that starts, or becomes managed, gets its messages at the next delivery; a deleted one never', async () => {
    const stopped = await machine('stopped');
    const unmanaged = await machine('running', { managed: false });
    const deleted = await machine('running');
    await send([stopped.id, unmanaged.id, deleted.id], 'Later');
    await t.database.db.update(machines).set({ deletedAt: new Date() }).where(eq(machines.id, deleted.id));
    const ids = [stopped.id, unmanaged.id, deleted.id];
    const ofThese = async (at: Date) => (await deliverPendingMessages(t.database.db, { at, limit: 1000 })).filter((d) => ids.includes(d.machineId)).map((d) => d.machineId);

    expect(await ofThese(new Date('2031-01-01T00:00:00Z'))).toEqual([]);
    await cloud.start(stopped.cloudId!);
    await t.database.db.update(machines).set({ managed: true }).where(eq(machines.id, unmanaged.id));
    // The start is a transition whose time has come (delay 0): it counts as running before anyone reads it.
    expect((await ofThese(new Date('2031-01-02T00:00:00Z'))).sort()).toEqual([stopped.id, unmanaged.id].sort());
    expect((await rowsOf([deleted.id]))[0]!.deliveredAt).toBeNull();
  });

  it('delivers each message exactly once when several deliver at the same time', async () => {
    const targets = await Promise.all(Array.from({ length: 6 }, () => machine('running')));
    for (let i = 0; i < 5; i++) await send(targets.map((m) => m.id), `Burst ${i}`);
    const ids = new Set(targets.map((m) => m.id));
    const rounds = await Promise.all(
      Array.from({ length: 4 }, (_, i) => deliverPendingMessages(t.database.db, { at: new Date(Date.UTC(2033, 0, 1, 0, 0, i)), limit: 7 })),
    );
    let delivered = rounds.flat().filter((d) => ids.has(d.machineId));
    // Small batches: whatever is left goes in later rounds, never twice.
    while (delivered.length < 30) {
      const more = (await deliverPendingMessages(t.database.db, { at: new Date('2033-02-01T00:00:00Z'), limit: 7 })).filter((d) => ids.has(d.machineId));
      if (more.length === 0) break;
      delivered = [...delivered, ...more];
    }
    const messageIds = delivered.map((d) => d.id);
    expect(new Set(messageIds).size).toBe(messageIds.length);
    expect(messageIds.length).toBe(30);
    const rows = await rowsOf([...ids]);
    expect(rows.every((r) => r.deliveredAt !== null)).toBe(true);
  });

  it("is part of the agent's pass, with the agent's clock", async () => {
    const running = await machine('running');
    await send([running.id], 'Through the agent');
    const at = new Date('2034-03-04T05:06:07.000Z');
    const engine = createOperationEngine({
      db: t.database.db,
      cloud,
      agent: createSimulatedAgent({ effects: {} }),
      events: createTaskEvents(),
      now: () => at,
    });
    // Not started: a pass still runs (it wakes nothing while the engine is stopped).
    await engine.pass();
    const [row] = await rowsOf([running.id]);
    expect(row!.deliveredAt?.toISOString()).toBe(at.toISOString());
    expect(await pendingTitles(running.id)).toEqual([]);
    const counted = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from notification_messages where machine_id = ${running.id} and delivered_at is null`,
    );
    expect(counted.rows[0]!.n).toBe(0);
  });
});
