/**
 * The agent's batched SQL against a real PostgreSQL, without an engine running
 * (invariants in `README.md` beside this file): one claim for many machines
 * applies each machine's rules on its own (cancel, busy, resume, start the
 * oldest, idle), and one finish for many operations applies each one's lease
 * and failCounter rule on its own.
 */
import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { issues, machines, operations } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { claimOperations } from './agent-claim.repository.js';
import { finishOperations } from './agent-finish.repository.js';

const database = useTestDatabase({ max: 3 });
const db = () => database.db;

/** A managed machine of class 1 with a running instance (unless `running` is false). */
async function machine(values: Partial<typeof machines.$inferInsert> = {}, running = true) {
  const account = await insertAccount(db(), { name: `Batch ${Math.random().toString(36).slice(2, 8)}` });
  const m = await insertMachine(db(), { accountId: account.id, instanceTypeId: 2, ...values });
  if (running) {
    const cloud = createSimulatedCloud({ db: db(), delayMs: 0 });
    const { cloudId } = await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `batch-${m.id}` });
    await cloud.describe(cloudId);
  }
  return m;
}

/** Inserts a SmokeTest of the machine with `values` (queued unless they say otherwise); answers its id. */
async function operation(m: typeof machines.$inferSelect, values: Partial<typeof operations.$inferInsert> = {}): Promise<number> {
  const [type] = (await db().execute<{ id: number }>(sql`select id from operation_types where machine_class_id = ${m.classId} and name = 'SmokeTest'`)).rows;
  const [row] = await db()
    .insert(operations)
    .values({ machineId: m.id, accountId: m.accountId, classId: m.classId, typeId: type!.id, typeName: 'SmokeTest', userName: 'admin', timeoutSeconds: 600, operationMode: 1, ...values })
    .returning({ id: operations.id });
  return row!.id;
}

const CLAIM = { worker: 'batch:1:abc', staleMs: 30_000, maxAttempts: 3, panicFailures: 3 };
const row = async (id: number) => (await db().select().from(operations).where(eq(operations.id, id)))[0]!;
/** An ended operation's OperationFinished payload, read in its finish's transaction: the operation as it ended. */
const announced = (id: number, status: 'SUCCESS' | 'FAILURE') => ({ operation: expect.objectContaining({ id, status }), classIds: [1, 1] });

describe('claimOperations (many machines, one transaction)', () => {
  it('cancels, finds busy, resumes, starts the oldest and leaves idle machines, each machine on its own', async () => {
    const queued = await machine();
    const [first, second] = [await operation(queued), await operation(queued)];
    const busy = await machine();
    await operation(busy, { status: 'RUNNING', startedAt: new Date(), heartbeatAt: new Date(), attempts: 1, worker: 'other:1:abc' });
    const stale = await machine();
    const old = new Date(Date.now() - 60_000);
    const resumedId = await operation(stale, { status: 'RUNNING', startedAt: old, heartbeatAt: old, attempts: 1, worker: 'dead:1:abc' });
    const cancelling = await machine();
    const cancelledId = await operation(cancelling, { decision: 'CANCEL', decidedBy: 'alice' });
    const behind = await operation(cancelling);
    const idle = await machine();
    const unmanaged = await machine({ managed: false });
    const waiting = await operation(unmanaged);

    const claims = await claimOperations(db(), { ...CLAIM, machineIds: [unmanaged.id, idle.id, cancelling.id, stale.id, busy.id, queued.id, queued.id] });

    expect(claims.busy).toEqual([busy.id]);
    expect(claims.ended).toEqual([
      { id: cancelledId, machineId: cancelling.id, classId: 1, status: 'FAILURE', counted: false, failCounter: 0, panicked: false, event: announced(cancelledId, 'FAILURE') },
    ]);
    const byMachine = new Map(claims.claimed.map((c) => [c.operation.machineId, c]));
    expect([...byMachine.keys()].sort((a, b) => a - b)).toEqual([queued.id, stale.id, cancelling.id].sort((a, b) => a - b));
    expect(byMachine.get(queued.id)).toMatchObject({ resumed: false, remainingMs: 600_000, operation: { id: first, status: 'RUNNING', attempts: 1, worker: CLAIM.worker } });
    expect(byMachine.get(cancelling.id)).toMatchObject({ resumed: false, operation: { id: behind, status: 'RUNNING' } });
    expect(byMachine.get(stale.id)).toMatchObject({ resumed: true, operation: { id: resumedId, attempts: 2, worker: CLAIM.worker } });
    // The operations started by the claim started in one statement.
    expect(byMachine.get(queued.id)!.operation.startedAt).toEqual(byMachine.get(cancelling.id)!.operation.startedAt);
    expect((await row(second)).status).toBeNull();
    expect((await row(waiting)).status).toBeNull();
    expect(await row(cancelledId)).toMatchObject({ status: 'FAILURE', startedAt: null });
  });

  it('answers nothing for no machines', async () => {
    expect(await claimOperations(db(), { ...CLAIM, machineIds: [] })).toEqual({ claimed: [], ended: [], busy: [] });
  });
});

describe('finishOperations (many operations, one transaction)', () => {
  it('applies each lease and failCounter rule on its own, answering in the order given', async () => {
    const running = { status: 'RUNNING', startedAt: new Date(), heartbeatAt: new Date(), attempts: 1, worker: CLAIM.worker };
    const failing = await machine({ failCounter: 0 });
    const failedId = await operation(failing, running);
    const recovering = await machine({ failCounter: 2 });
    const succeededId = await operation(recovering, running);
    const clean = await machine({ failCounter: 0 });
    const cleanId = await operation(clean, running);
    const taken = await machine();
    const takenId = await operation(taken, { ...running, attempts: 2 });

    const ended = await finishOperations(
      db(),
      [
        { lease: { operationId: succeededId, attempt: 1 }, outcome: { status: 'SUCCESS' }, output: 'line\n' },
        { lease: { operationId: takenId, attempt: 1 }, outcome: { status: 'SUCCESS' } },
        { lease: { operationId: failedId, attempt: 1 }, outcome: { status: 'FAILURE', message: 'Deployer exited with code 3', counts: true }, deployerLog: 'ERROR x\n' },
        { lease: { operationId: cleanId, attempt: 1 }, outcome: { status: 'SUCCESS' } },
      ],
      { panicFailures: 3 },
    );

    expect(ended).toEqual([
      { id: succeededId, machineId: recovering.id, classId: 1, status: 'SUCCESS', counted: false, failCounter: 0, panicked: false, event: announced(succeededId, 'SUCCESS') },
      undefined,
      { id: failedId, machineId: failing.id, classId: 1, status: 'FAILURE', counted: true, failCounter: 1, panicked: false, event: announced(failedId, 'FAILURE') },
      { id: cleanId, machineId: clean.id, classId: 1, status: 'SUCCESS', counted: false, failCounter: 0, panicked: false, event: announced(cleanId, 'SUCCESS') },
    ]);
    const rows = new Map((await db().select().from(operations).where(inArray(operations.id, [succeededId, takenId, failedId, cleanId]))).map((r) => [r.id, r]));
    expect(rows.get(succeededId)).toMatchObject({ status: 'SUCCESS', failCounter: 0 });
    expect(rows.get(succeededId)!.output).toMatch(/^line\n.*Operation succeeded\n$/);
    expect(rows.get(takenId)).toMatchObject({ status: 'RUNNING', finishedAt: null, output: '' });
    expect(rows.get(failedId)).toMatchObject({ status: 'FAILURE', failCounter: 1, deployerLog: 'ERROR x\n' });
    const counters = new Map((await db().select().from(machines).where(inArray(machines.id, [recovering.id, failing.id, clean.id]))).map((m) => [m.id, m.failCounter]));
    expect(Object.fromEntries(counters)).toEqual({ [recovering.id]: 0, [failing.id]: 1, [clean.id]: 0 });
    expect(await db().select({ description: issues.description }).from(issues).where(eq(issues.machineId, failing.id))).toEqual([
      { description: 'SmokeTest failed: Deployer exited with code 3' },
    ]);
  });
});
