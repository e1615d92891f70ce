/**
 * Why a queued operation waits (issue 24 point 1), through the real app on a
 * real PostgreSQL: one machine per start rule, each with one queued operation,
 * `GET /operations/{id}` naming the rule that holds it; the same rules decide
 * the agent's claim (the operations said to be starting are exactly the ones
 * it claims); and the cancel of a queued operation, audited and ended by the
 * agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TOperation, TOperationWaitingReason, TQueuedOperationsResponse, TUserActivity } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { machines, machineTasks, operations } from '../../db/schema.js';
import { createSimulatedCloud } from '../../engine/cloud/simulated.js';
import { claimOperations } from '../../engine/operations/agent-claim.repository.js';

let t: TestApp;
let accountId = 0;
/** Class 2 (Internal Testing) is on standby in the seed; class 1 is not. */
const STANDBY_CLASS = 2;

const queue = async (machineId: number, name: string) => {
  const res = await t.call({ method: 'POST', url: `/machines/${machineId}/queue-operations`, as: 'admin', body: { operations: [name] } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TQueuedOperationsResponse).operations[0]!.id;
};
const operation = async (id: number, as = 'operator') => {
  const res = await t.call({ method: 'GET', url: `/operations/${id}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TOperation;
};

/** A machine of class 1 (unless given) whose instance runs (unless `running` is false). */
async function machine(values: Partial<typeof machines.$inferInsert> = {}, running = true) {
  const row = await insertMachine(t.database.db, { accountId, name: `wait-${Math.random().toString(36).slice(2, 8)}`, ...values });
  if (running) {
    const cloud = createSimulatedCloud({ db: t.database.db, delayMs: 0 });
    await cloud.describe((await cloud.launch({ machineId: row.id, region: 'eu-west-1', instanceTypeId: 2, clientToken: `wait-${row.id}` })).cloudId);
  }
  return row.id;
}

/** Each rule: the machine (and operation) it needs, and the words its sentence must hold. */
const cases: [TOperationWaitingReason, () => Promise<number>, RegExp][] = [
  ['starting', async () => queue(await machine(), 'SmokeTest'), /^Starting/],
  ['classStandby', async () => queue(await machine({ classId: STANDBY_CLASS }), 'SmokeTest'), /MMA class Internal Testing is on standby: an admin can switch standby off/],
  ['panic', async () => queue(await machine({ needsAdmin: true }), 'SmokeTest'), /Panic: Reset failure/],
  ['unmanaged', async () => queue(await machine({ managed: false }), 'SmokeTest'), /unmanaged: switching Managed on/],
  ['manualMaintenance', async () => queue(await machine({ manualMaintenance: true }), 'SmokeTest'), /manual maintenance/],
  ['instanceNotRunning', async () => queue(await machine({}, false), 'SmokeTest'), /instance is missing/],
  [
    'taskRunning',
    async () => {
      const id = await machine();
      await t.database.db.insert(machineTasks).values({ machineId: id, accountId, type: 'StopMachine', status: 'Running', description: 'Stopping' });
      return queue(id, 'SmokeTest');
    },
    /running task StopMachine \(task \d+\) to end/,
  ],
  [
    'operationRunning',
    async () => {
      const id = await machine();
      const first = await queue(id, 'Backup');
      await t.database.db.update(operations).set({ status: 'RUNNING', startedAt: new Date(), heartbeatAt: new Date() }).where(eq(operations.id, first));
      return queue(id, 'SmokeTest');
    },
    /running operation Backup \(\d+\) to end/,
  ],
  [
    'behindOperation',
    async () => {
      const id = await machine();
      await queue(id, 'Backup');
      return queue(id, 'SmokeTest');
    },
    /Queued behind operation Backup \(\d+\)/,
  ],
  [
    'approval',
    async () => {
      const op = await queue(await machine(), 'SmokeTest');
      await t.database.db.update(operations).set({ pending: true }).where(eq(operations.id, op));
      return op;
    },
    /Waiting for approval/,
  ],
  [
    'notBefore',
    async () => {
      const op = await queue(await machine(), 'SmokeTest');
      await t.database.db.update(operations).set({ notBefore: new Date(Date.now() + 3_600_000) }).where(eq(operations.id, op));
      return op;
    },
    /Scheduled: not before \d{4}-/,
  ],
  ['machineTerminating', async () => queue(await machine({ terminate: true }), 'SmokeTest'), /being terminated/],
];
const made = new Map<TOperationWaitingReason, number>();

beforeAll(async () => {
  t = await startTestApp();
  accountId = (await insertAccount(t.database.db, { name: 'Waiting Work' })).id;
  for (const [reason, make] of cases) made.set(reason, await make());
});
afterAll(() => t.close());

describe('GET /operations/{id}: what a queued operation waits for', () => {
  it.each(cases.map(([reason, , words]) => [reason, words] as const))('names %s with its sentence', async (reason, words) => {
    const op = await operation(made.get(reason)!);
    expect(op.status).toBeNull();
    expect(op.waiting?.reason).toBe(reason);
    expect(op.waiting?.message).toMatch(words);
  });

  it('answers the same waiting in the lists as in the one operation', async () => {
    const id = made.get('classStandby')!;
    const res = await t.call({ method: 'GET', url: '/operations', as: 'operator', query: { machineId: String((await operation(id)).machineId) } });
    const listed = (res.json() as { items: TOperation[] }).items.find((o) => o.id === id);
    expect(listed?.waiting).toEqual((await operation(id)).waiting);
  });

  it('answers null once the operation has started or finished', async () => {
    const id = made.get('starting')!;
    await t.database.db.update(operations).set({ status: 'SUCCESS', startedAt: new Date(), finishedAt: new Date() }).where(eq(operations.id, id));
    expect((await operation(id)).waiting).toBeNull();
  });

  it('answers 404 for an unknown or hidden operation and 400 for a bad id', async () => {
    expect((await t.call({ method: 'GET', url: '/operations/2000000000', as: 'operator' })).statusCode).toBe(404);
    const bad = await t.call({ method: 'GET', url: '/operations/2147483648', as: 'operator' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('id');
    const cpAccount = (await insertAccount(t.database.db, { name: 'Waiting Production', classId: 5 })).id;
    const cp = await queue((await insertMachine(t.database.db, { accountId: cpAccount, classId: 5, name: 'wait-cp' })).id, 'SmokeTest');
    expect((await t.call({ method: 'GET', url: `/operations/${cp}`, as: 'operator' })).statusCode).toBe(404);
    expect((await operation(cp, 'admin')).id).toBe(cp);
    expect((await t.call({ method: 'GET', url: `/operations/${cp}` })).statusCode).toBe(401);
  });
});

describe('the agent applies the rules the lists show', () => {
  it('claims exactly the operations said to be starting', async () => {
    const fresh = await queue(await machine(), 'SmokeTest');
    const ids = [fresh, ...made.values()];
    const said = new Map<number, string | undefined>();
    for (const id of ids) said.set(id, (await operation(id)).waiting?.reason);
    const machineIds = await Promise.all(ids.map(async (id) => (await operation(id)).machineId));
    const { claimed } = await claimOperations(t.database.db, { machineIds, worker: 'test', staleMs: 60_000, maxAttempts: 3, panicFailures: 3 });
    const claimedIds = claimed.map((c) => c.operation.id);
    // 'behindOperation' machine: its older Backup is claimed, not the SmokeTest behind it.
    const startable = ids.filter((id) => said.get(id) === 'starting');
    expect(startable).toContain(fresh);
    for (const id of startable) expect(claimedIds).toContain(id);
    for (const id of ids.filter((i) => said.get(i) !== 'starting')) expect(claimedIds).not.toContain(id);
  });
});

describe('cancelling a queued operation', () => {
  it('marks it being cancelled, audits it, and the agent ends it FAILURE naming the canceller', async () => {
    const id = await queue(await machine({ classId: STANDBY_CLASS }), 'SmokeTest');
    const { machineId } = await operation(id);
    const res = await t.call({ method: 'PATCH', url: `/machines/${machineId}/operations/${id}`, as: 'operator', body: { params: 'CANCEL' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await operation(id)).waiting?.reason).toBe('cancelling');
    const activities = (await t.call({ method: 'GET', url: '/user-activities', as: 'admin' })).json() as TUserActivity[];
    expect(activities.find((a) => a.action === 'CancelOperation')).toMatchObject({ user: 'operator', metadata: { params: { operationId: id, decision: 'CANCEL' } } });
    const { ended } = await claimOperations(t.database.db, { machineIds: [machineId], worker: 'test', staleMs: 60_000, maxAttempts: 3, panicFailures: 3 });
    expect(ended.map((e) => e.id)).toEqual([id]);
    const [row] = await t.database.db.select().from(operations).where(eq(operations.id, id));
    expect(row).toMatchObject({ status: 'FAILURE' });
    expect(row!.output).toMatch(/Cancelled by operator/);
  });

  it('refuses a viewer (403) and an operation that has finished (409)', async () => {
    const id = await queue(await machine(), 'SmokeTest');
    const { machineId } = await operation(id);
    const patch = (as: string) => t.call({ method: 'PATCH', url: `/machines/${machineId}/operations/${id}`, as, body: { params: 'CANCEL' } });
    expect((await patch('viewer')).statusCode).toBe(403);
    await t.database.db.update(operations).set({ status: 'SUCCESS', startedAt: new Date(), finishedAt: new Date() }).where(eq(operations.id, id));
    const finished = await patch('operator');
    expect(finished.statusCode).toBe(409);
    expect(finished.json().detail).toMatch(/has finished/);
  });
});

describe('the approvals inbox: GET /operations/pending-count and POST /operations/decisions', () => {
  /** A queued SmokeTest set pending, on a new machine of `classId` (default 1), in a new account of that class. */
  async function pendingOperation(classId = 1) {
    const account = (await insertAccount(t.database.db, { name: `Approvals ${classId}`, classId })).id;
    const id = await queue((await insertMachine(t.database.db, { accountId: account, classId, name: `approve-${Math.random().toString(36).slice(2, 8)}` })).id, 'SmokeTest');
    await t.database.db.update(operations).set({ pending: true }).where(eq(operations.id, id));
    return id;
  }
  const count = async (as: string) => {
    const res = await t.call({ method: 'GET', url: '/operations/pending-count', as });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { count: number }).count;
  };
  const decide = (as: string, body: unknown) => t.call({ method: 'POST', url: '/operations/decisions', as, body });

  it('counts the pending operations the user can see: Customer Production only with the group', async () => {
    const [admin, operator] = [await count('admin'), await count('operator')];
    await pendingOperation(5);
    expect(await count('admin')).toBe(admin + 1);
    expect(await count('operator')).toBe(operator);
    await pendingOperation(1);
    expect(await count('operator')).toBe(operator + 1);
  });

  it('proceeds two at once, each audited, and refuses an unknown, a hidden and a not pending one with the reason', async () => {
    const [a, b, cp] = [await pendingOperation(), await pendingOperation(), await pendingOperation(5)];
    const notPending = await queue(await machine(), 'SmokeTest');
    const before = await count('operator');
    const res = await decide('operator', { decision: 'PROCEED', operationIds: [a, b, 2_000_000_000, cp, notPending] });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { decided: TOperation[]; refused: { operationId: number; message: string }[] };
    expect(answer.decided.map((o) => [o.id, o.pending, o.decision, o.decidedBy])).toEqual([
      [a, false, 'PROCEED', 'operator'],
      [b, false, 'PROCEED', 'operator'],
    ]);
    expect(answer.refused).toEqual([
      { operationId: 2_000_000_000, message: 'Operation 2000000000 was not found' },
      { operationId: cp, message: `Operation ${cp} was not found` },
      { operationId: notPending, message: `Operation ${notPending} is not waiting for approval` },
    ]);
    expect(await count('operator')).toBe(before - 2);
    const activities = (await t.call({ method: 'GET', url: '/user-activities', as: 'admin' })).json() as TUserActivity[];
    const proceeded = activities.filter((x) => x.action === 'ProceedOperation').map((x) => x.metadata.params.operationId);
    expect(proceeded).toEqual(expect.arrayContaining([a, b]));
  });

  it('cancels a selection: they end as being cancelled', async () => {
    const [a, b] = [await pendingOperation(), await pendingOperation()];
    const res = await decide('admin', { decision: 'CANCEL', operationIds: [a, b] });
    expect((res.json() as { decided: TOperation[] }).decided.map((o) => o.waiting?.reason)).toEqual(['cancelling', 'cancelling']);
  });

  it('refuses a viewer (403) and bad bodies (400 with the field)', async () => {
    const a = await pendingOperation();
    expect((await decide('viewer', { decision: 'PROCEED', operationIds: [a] })).statusCode).toBe(403);
    expect((await operation(a)).pending).toBe(true);
    for (const [body, field] of [
      [{ decision: 'PROCEED', operationIds: [] }, 'operationIds'],
      [{ decision: 'PROCEED', operationIds: Array.from({ length: 201 }, (_, i) => i + 1) }, 'operationIds'],
      [{ decision: 'PROCEED', operationIds: [2 ** 31] }, 'operationIds.0'],
      [{ decision: 'MAYBE', operationIds: [a] }, 'decision'],
    ] as const) {
      const res = await decide('operator', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { propertyName: string }) => e.propertyName)).toContain(field);
    }
  });
});
