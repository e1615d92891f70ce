/**
 * The claim and the finish of machine tasks against a real PostgreSQL, with no
 * engine running (`README.md` beside this file): which claim a machine's state
 * gives, and the finish's `more`, which decides whether a drain claims again.
 */
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { cloudInstances, machines, machineTasks } from '../../db/schema.js';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { CLAIM_LOCK_NAMESPACE, claimNext, finishTask, insertTasks } from './tasks.repository.js';
import { DEFAULT_INSTANCE_TYPE_ID, DEFAULT_REGION, selectMachineContext } from './machine-state.repository.js';

const database = useTestDatabase({ max: 4 });

const claim = (machineId: number) => claimNext(database.db, { machineId, worker: 'test', staleMs: 30_000, maxAttempts: 3 });

async function machine() {
  const account = await insertAccount(database.db, { name: `Claims ${Math.random().toString(36).slice(2, 8)}` });
  return insertMachine(database.db, { accountId: account.id });
}

async function queue(m: { id: number; accountId: number }, n: number) {
  const tasks = Array.from({ length: n }, (_, i) => ({ machineId: m.id, accountId: m.accountId, type: 'StartMachine' as const, description: `Start ${i}` }));
  return insertTasks(database.db, tasks);
}

/** A Running task of `m` whose worker died after `attempts` attempts (its heartbeat long stale). */
async function staleRunningTask(m: { id: number; accountId: number }, attempts: number) {
  const [row] = await database.db
    .insert(machineTasks)
    .values({ machineId: m.id, accountId: m.accountId, type: 'StopMachine', status: 'Running', description: 'Stop', attempts, heartbeatAt: new Date(0), startedAt: new Date(0), worker: 'dead' })
    .returning();
  return row!;
}

describe('claimNext', () => {
  it('claims the oldest New task, then answers busy while it runs and idle once nothing is New', async () => {
    const m = await machine();
    const [first, second] = await queue(m, 2);
    expect(await claim(m.id)).toMatchObject({ kind: 'claimed', resumed: false, task: { id: first!.id, status: 'Running', attempts: 1, worker: 'test' } });
    expect(await claim(m.id)).toEqual({ kind: 'busy' });
    await finishTask(database.db, { taskId: first!.id, attempt: 1 }, { status: 'Completed' });
    expect(await claim(m.id)).toMatchObject({ kind: 'claimed', task: { id: second!.id } });
    await finishTask(database.db, { taskId: second!.id, attempt: 1 }, { status: 'Completed' });
    expect(await claim(m.id)).toEqual({ kind: 'idle', abandoned: [] });
  });

  it('answers the machine a claimed task is for, as the separate read does', async () => {
    const m = await machine();
    await queue(m, 1);
    const claimed = await claim(m.id);
    expect(claimed).toMatchObject({ kind: 'claimed', machine: { context: await selectMachineContext(database.db, m.id) } });
    expect(claimed.kind === 'claimed' && claimed.machine?.context).toMatchObject({
      id: m.id,
      accountId: m.accountId,
      instanceTypeId: DEFAULT_INSTANCE_TYPE_ID,
      region: DEFAULT_REGION,
      deleted: false,
      activeCloudId: null,
    });
  });

  it("reads the machine after the claim's lock: a change committed while the claim waited is seen", async () => {
    const m = await machine();
    await queue(m, 1);
    // Another worker holds the machine's claim lock while it finishes a task that replaced the instance.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const other = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_NAMESPACE}, ${m.id})`);
      locked();
      await held;
      await tx.update(machines).set({ instanceTypeId: 3 }).where(eq(machines.id, m.id));
      await tx.insert(cloudInstances).values({
        machineId: m.id,
        cloudId: `i-claim-${m.id}`,
        status: 'running',
        region: 'eu-west-1',
        hostName: 'h',
        ipAddress: '10.0.0.1',
        privateIpAddress: '10.0.0.2',
        storageSize: 30,
      });
    });
    await lockTaken;
    const claiming = claim(m.id);
    // The claim's statement has begun (its snapshot taken) and waits on the lock.
    await expect.poll(async () => (await database.db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)).rows[0]!.n).toBe(1);
    release();
    await other;
    expect(await claiming).toMatchObject({ kind: 'claimed', machine: { context: { instanceTypeId: 3, region: 'eu-west-1', activeCloudId: `i-claim-${m.id}` } } });
  });

  it('resumes a stale Running task before any New one', async () => {
    const m = await machine();
    const stale = await staleRunningTask(m, 1);
    await queue(m, 1);
    expect(await claim(m.id)).toMatchObject({ kind: 'claimed', resumed: true, task: { id: stale.id, attempts: 2, worker: 'test' } });
  });

  it('fails a task whose workers died maxAttempts times and claims the next New one in the same claim', async () => {
    const m = await machine();
    const dead = await staleRunningTask(m, 3);
    const [next] = await queue(m, 1);
    expect(await claim(m.id)).toMatchObject({ kind: 'claimed', task: { id: next!.id }, abandoned: [{ id: dead.id, status: 'Failed' }] });
  });
});

describe('finishTask', () => {
  it("answers more only when the finished task's own machine has a New task", async () => {
    const a = await machine();
    const b = await machine();
    const [a1, a2] = await queue(a, 2);
    await queue(b, 1); // another machine's New task does not count
    await claim(a.id);
    expect(await finishTask(database.db, { taskId: a1!.id, attempt: 1 }, { status: 'Completed' })).toMatchObject({ more: true, task: { id: a1!.id, status: 'Completed', progress: 100 } });
    await claim(a.id);
    expect(await finishTask(database.db, { taskId: a2!.id, attempt: 1 }, { status: 'Failed', error: 'boom' })).toMatchObject({ more: false, task: { id: a2!.id, status: 'Failed', error: 'boom' } });
  });

  it('changes nothing and answers undefined for a lease another attempt holds', async () => {
    const m = await machine();
    const [t] = await queue(m, 1);
    await claim(m.id);
    expect(await finishTask(database.db, { taskId: t!.id, attempt: 2 }, { status: 'Completed' })).toBeUndefined();
    expect(await claim(m.id)).toEqual({ kind: 'busy' });
  });
});
