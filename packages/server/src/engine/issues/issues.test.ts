/**
 * Issues against a real PostgreSQL (DESIGN §14): grouping by fingerprint, the
 * count and occurrence times, tags, logs (cut, retained), reopening a resolved
 * issue, concurrent occurrences, and each source that raises them: a failed
 * operation, Panic, the anomaly's standby (through the running agent), a failed
 * and an abandoned task, and the site server status check (with its clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ISSUE_LOG_MAX_CONTENT, ISSUE_LOG_RETAINED } from '@fleet/contracts';
import { cloudInstances, issueLogs, issues, machines, machineTasks, operations } from '../../db/schema.js';
import { startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';
import { claimNext, finishTask, insertTasks } from '../tasks/tasks.repository.js';
import { finishOperation } from '../operations/agent-finish.repository.js';
import { siteServerStatus } from '../../modules/operations/site-server-status.js';
import { issueFingerprint, normaliseDescription, raiseIssue, raiseIssues, type IssueOccurrence } from './raise.js';
import { runServerStatusCheck, SERVER_STATUS_CHECK, SERVER_STATUS_FAULTS } from './server-status-check.js';

let f: AgentFixture;

beforeAll(async () => {
  // Panic at 3 (class 4's test), standby at 4 failures of one class (class 3's test); class 2 is on standby in the seed.
  f = await startAgentFixture({ panicFailures: 3, anomalyFailures: 4, anomalyWindowMinutes: 10 });
});
afterAll(() => f.close());

const db = () => f.database.db;
const issuesOf = (machineId: number) => db().select().from(issues).where(eq(issues.machineId, machineId)).orderBy(asc(issues.id));
const logsOf = (issueId: number) => db().select().from(issueLogs).where(eq(issueLogs.issueId, issueId)).orderBy(asc(issueLogs.id));
const occurrence = (machineId: number, o: Partial<IssueOccurrence> = {}): IssueOccurrence => ({
  machineId,
  source: 'probe',
  description: 'Launcher did not answer within 5000 ms',
  tags: ['probe'],
  content: 'GET https://x.example/launcher: timeout',
  ...o,
});

describe('normaliseDescription', () => {
  it('strips numbers, ids and times so that occurrences of one problem share a fingerprint', () => {
    expect(normaliseDescription('Timed out after 600 s (attempt 2) at 2026-01-05T10:00:00.123Z')).toBe('Timed out after <n> s (attempt <n>) at <time>');
    expect(normaliseDescription('Instance i-0abc12345def unreachable, request 3f2a9c1e-1111-4a2b-9c3d-0123456789ab')).toBe('Instance <id> unreachable, request <id>');
    expect(normaliseDescription('  disk   at 91.5 %  ')).toBe('disk at <n> %');
    expect(issueFingerprint('Backup failed: exit 3')).toBe(issueFingerprint('Backup failed: exit 12'));
    expect(issueFingerprint('Backup failed: exit 3')).not.toBe(issueFingerprint('Restore failed: exit 3'));
    // Words with hex letters only are not ids.
    expect(normaliseDescription('deadbeef-free facade')).toBe('deadbeef-free facade');
  });
});

describe('raiseIssue', () => {
  it('groups occurrences by machine, source and normalised description: count, first and last occurrence, tags, logs', async () => {
    const m = await f.machine();
    const other = await f.machine();
    const t0 = new Date('2026-03-01T10:00:00.000Z');
    await raiseIssue(db(), occurrence(m.id, { tags: ['probe', 'launcher'] }), t0);
    await raiseIssue(db(), occurrence(m.id, { description: 'Launcher did not answer within 7000 ms', tags: [' launcher ', 'slow', ''], content: 'second' }), new Date(t0.getTime() + 60_000));
    // An occurrence that arrives late does not move the last occurrence back, but may move the first.
    await raiseIssue(db(), occurrence(m.id, { content: 'late' }), new Date(t0.getTime() - 60_000));
    await raiseIssue(db(), occurrence(m.id, { source: 'server-status' }), t0);
    await raiseIssue(db(), occurrence(m.id, { description: 'Site master did not answer' }), t0);
    await raiseIssue(db(), occurrence(other.id), t0);

    const rows = await issuesOf(m.id);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      source: 'probe',
      count: 3,
      description: 'Launcher did not answer within 5000 ms',
      tags: ['probe', 'launcher', 'slow'],
      isResolved: false,
    });
    expect(rows[0]!.firstOccurrenceTime.toISOString()).toBe('2026-03-01T09:59:00.000Z');
    expect(rows[0]!.lastOccurrenceTime.toISOString()).toBe('2026-03-01T10:01:00.000Z');
    expect(rows.map((r) => r.count)).toEqual([3, 1, 1]);
    const content = 'GET https://x.example/launcher: timeout';
    expect((await logsOf(rows[0]!.id)).map((l) => [l.content, l.tags, l.size, l.complete])).toEqual([
      [content, ['probe', 'launcher'], content.length, true],
      ['second', ['launcher', 'slow'], 6, true],
      ['late', ['probe'], 4, true],
    ]);
    expect(await issuesOf(other.id)).toHaveLength(1);
  });

  it('reopens a resolved issue that occurs again', async () => {
    const m = await f.machine();
    await raiseIssue(db(), occurrence(m.id));
    await db().update(issues).set({ isResolved: true, resolvedAt: new Date() }).where(eq(issues.machineId, m.id));
    await raiseIssue(db(), occurrence(m.id, { description: 'Launcher did not answer within 9 ms' }));
    const [row] = await issuesOf(m.id);
    expect(row).toMatchObject({ isResolved: false, resolvedAt: null, count: 2 });
  });

  it('makes one issue of concurrent occurrences of one fingerprint', async () => {
    const m = await f.machine();
    await Promise.all(Array.from({ length: 8 }, (_, i) => raiseIssue(db(), occurrence(m.id, { content: `occurrence ${i}` }))));
    const rows = await issuesOf(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.count).toBe(8);
    expect(await logsOf(rows[0]!.id)).toHaveLength(8);
  });

  it('cuts long content (complete false, size of the whole) and keeps the newest logs only', async () => {
    const m = await f.machine();
    const long = 'x'.repeat(ISSUE_LOG_MAX_CONTENT + 10);
    await raiseIssue(db(), occurrence(m.id, { content: long }));
    const [row] = await issuesOf(m.id);
    const [log] = await logsOf(row!.id);
    expect(log).toMatchObject({ size: ISSUE_LOG_MAX_CONTENT + 10, complete: false });
    expect(log!.content).toHaveLength(ISSUE_LOG_MAX_CONTENT);
    for (let i = 1; i <= ISSUE_LOG_RETAINED + 4; i += 1) await raiseIssue(db(), occurrence(m.id, { content: `n${i}` }));
    const logs = await logsOf(row!.id);
    expect(logs).toHaveLength(ISSUE_LOG_RETAINED);
    expect(logs[0]!.content).toBe('n5');
    expect(logs.at(-1)!.content).toBe(`n${ISSUE_LOG_RETAINED + 4}`);
    expect((await issuesOf(m.id))[0]!.count).toBe(ISSUE_LOG_RETAINED + 5);
  });

  it('commits with the caller: a rolled back change leaves no issue', async () => {
    const m = await f.machine();
    await expect(
      db().transaction(async (tx) => {
        await raiseIssue(tx, occurrence(m.id));
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await issuesOf(m.id)).toHaveLength(0);
  });
});

describe('raiseIssues', () => {
  it('records a batch as one occurrence after the other: repeats of a fingerprint count, keep their order, and the retained logs stay the newest', async () => {
    const [a, b] = [await f.machine(), await f.machine()];
    const repeats = Array.from({ length: ISSUE_LOG_RETAINED + 2 }, (_, i) => occurrence(a.id, { content: `a${i + 1}`, tags: ['probe', `t${i % 3}`] }));
    await raiseIssues(db(), [...repeats, occurrence(b.id, { content: 'b1' }), occurrence(a.id, { source: 'task', description: 'StartMachine failed', content: 'other' })]);
    const [probe, task] = await issuesOf(a.id);
    expect(probe).toMatchObject({ source: 'probe', count: ISSUE_LOG_RETAINED + 2, tags: ['probe', 't0', 't1', 't2'] });
    expect(task).toMatchObject({ source: 'task', count: 1 });
    const logs = await logsOf(probe!.id);
    expect(logs.map((l) => l.content)).toEqual(Array.from({ length: ISSUE_LOG_RETAINED }, (_, i) => `a${i + 3}`));
    expect((await issuesOf(b.id)).map((r) => r.count)).toEqual([1]);
  });

  it('records all or nothing: an unknown machine fails the whole batch', async () => {
    const m = await f.machine();
    await expect(raiseIssues(db(), [occurrence(m.id), occurrence(2_000_000_000)])).rejects.toMatchObject({
      cause: { code: '23503', constraint: 'issues_machine_id_machines_id_fk' },
    });
    expect(await issuesOf(m.id)).toHaveLength(0);
  });
});

describe('issues raised by the agent', () => {
  it('a failed operation raises an operation issue with the end of its output; a second failure counts it', async () => {
    const m = await f.machine({ classId: 1 });
    f.agent.failNext({ machineId: m.id, times: 2, message: 'Deployer exited with code 3' });
    const first = await f.settled(await f.enqueue(m, 'SmokeTest'));
    expect(first.status).toBe('FAILURE');
    let rows = await issuesOf(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'operation', description: 'SmokeTest failed: Deployer exited with code 3', tags: ['operation', 'SmokeTest'], count: 1 });
    const [log] = await logsOf(rows[0]!.id);
    expect(log!.content).toContain(`Operation ${first.id} (SmokeTest) failed: Deployer exited with code 3`);
    expect(log!.content).toContain('Started on');
    await f.settled(await f.enqueue(m, 'SmokeTest'));
    rows = await issuesOf(m.id);
    expect(rows.map((r) => [r.source, r.count])).toEqual([['operation', 2]]);
  });

  it('the failure that puts a machine in Panic raises a panic issue, once', async () => {
    const m = await f.machine({ classId: 4 });
    f.agent.failNext({ machineId: m.id, times: 3, message: 'Deployer exited with code 9' });
    for (let i = 0; i < 3; i += 1) expect((await f.settled(await f.enqueue(m, 'SmokeTest'))).status).toBe('FAILURE');
    expect((await f.machineRow(m.id)).needsAdmin).toBe(true);
    const rows = await issuesOf(m.id);
    expect(rows.map((r) => [r.source, r.count])).toEqual([
      ['operation', 3],
      ['panic', 1],
    ]);
    expect(rows[1]).toMatchObject({ description: 'Machine in Panic after 3 failed operations in a row', tags: ['panic', 'SmokeTest'] });
  });

  it('the anomaly raises a standby issue on each machine whose failures switched the class standby on', async () => {
    const failing = await Promise.all([1, 2, 3, 4].map(() => f.machine({ classId: 3 })));
    f.agent.failNext({ typeName: 'Populate', times: 4, message: 'Populate failed: no space' });
    for (const m of failing) expect((await f.settled(await f.enqueue(m, 'Populate'))).status).toBe('FAILURE');
    const standbyIssues = () =>
      db()
        .select()
        .from(issues)
        .where(and(eq(issues.source, 'standby'), inArray(issues.machineId, failing.map((m) => m.id))));
    // The anomaly rule runs after the finish that tipped it.
    await f.until('standby issues', async () => (await standbyIssues()).length === 4);
    const standby = await standbyIssues();
    expect(standby[0]).toMatchObject({ description: 'Class Internal Production switched to standby (anomaly): 4 failed operations within 10 minutes', tags: ['standby', 'anomaly', 'Internal Production'] });
  });

  it('a finish whose lease was lost raises nothing', async () => {
    const m = await f.machine({ classId: 1 }, 'stopped');
    const id = await f.enqueue(m, 'SmokeTest');
    await db().update(operations).set({ status: 'RUNNING', attempts: 2, startedAt: new Date(), heartbeatAt: new Date() }).where(eq(operations.id, id));
    const ended = await finishOperation(db(), { operationId: id, attempt: 1 }, { status: 'FAILURE', message: 'stale worker', counts: true }, { panicFailures: 3 });
    expect(ended).toBeUndefined();
    expect(await issuesOf(m.id)).toHaveLength(0);
  });
});

describe('issues raised by the task engine', () => {
  it('a Failed task raises a task issue; a task abandoned after maxAttempts too', async () => {
    const m = await f.machine({ classId: 1 }, 'none');
    const [row] = await insertTasks(db(), [{ machineId: m.id, accountId: m.accountId, type: 'StartMachine', description: 'Start machine x' }]);
    // Claimed and finished by hand: the fixture runs no task engine.
    const claim = await claimNext(db(), { machineId: m.id, worker: 'test', staleMs: 30_000, maxAttempts: 3 });
    expect(claim).toMatchObject({ kind: 'claimed', task: { id: row!.id } });
    await finishTask(db(), { taskId: row!.id, attempt: 1 }, { status: 'Failed', error: 'Machine m-1 has no cloud instance' });
    let rows = await issuesOf(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'task', description: 'StartMachine failed: Machine m-1 has no cloud instance', tags: ['task', 'StartMachine'] });
    expect((await logsOf(rows[0]!.id))[0]!.content).toBe(`Task ${row!.id} (Start machine x) failed after 1 attempt(s): Machine m-1 has no cloud instance`);

    await db()
      .insert(machineTasks)
      .values({ machineId: m.id, accountId: m.accountId, type: 'StopMachine', status: 'Running', description: 'Stop', attempts: 3, heartbeatAt: new Date(0), startedAt: new Date(0), worker: 'dead' });
    const again = await claimNext(db(), { machineId: m.id, worker: 'test', staleMs: 30_000, maxAttempts: 3 });
    expect(again).toMatchObject({ kind: 'idle', abandoned: [{ status: 'Failed' }] });
    rows = await issuesOf(m.id);
    expect(rows.map((r) => r.description)).toEqual([
      'StartMachine failed: Machine m-1 has no cloud instance',
      'StopMachine failed: The worker running this task stopped responding (3 attempts)',
    ]);
  });

  it('a Completed task raises nothing', async () => {
    const m = await f.machine({ classId: 1 }, 'none');
    const [row] = await insertTasks(db(), [{ machineId: m.id, accountId: m.accountId, type: 'StartMachine', description: 'Start' }]);
    await claimNext(db(), { machineId: m.id, worker: 'test', staleMs: 30_000, maxAttempts: 3 });
    await finishTask(db(), { taskId: row!.id, attempt: 1 }, { status: 'Completed' });
    expect(await issuesOf(m.id)).toHaveLength(0);
  });
});

describe('the site server status check', () => {
  const minute = 60_000;
  let clock = new Date('2030-01-01T00:00:00.000Z').getTime();
  const run = (advanceMs: number) => {
    clock += advanceMs;
    return runServerStatusCheck(db(), { at: new Date(clock), intervalMs: minute });
  };

  it("reopens the demo seed's resolved site server status issue at the first check (its fault lasts)", async () => {
    const seeded = await db().select().from(issues).where(and(eq(issues.source, 'server-status'), eq(issues.isResolved, true)));
    expect(seeded).toHaveLength(1);
    expect(seeded[0]!.count).toBe(3);
    await run(0);
    const [after] = await db().select().from(issues).where(eq(issues.id, seeded[0]!.id));
    expect(after).toMatchObject({ isResolved: false, count: 4 });
    // The other seeded issues: open, from tasks, operations and a probe.
    const { rows } = await db().execute<{ source: string; n: number }>(sql`select source, count(*)::int as n from issues where not is_resolved group by source order by source`);
    expect(rows.map((r) => r.source)).toEqual(expect.arrayContaining(['operation', 'probe', 'server-status', 'task']));
  });

  it('raises an issue for each running managed machine with a false flag, once per interval, consistent with the status call', async () => {
    const panicked = await f.machine({ classId: 1, needsAdmin: true, failCounter: 3 });
    const failedLast = await f.machine({ classId: 1 });
    const healthy = await f.machine({ classId: 1 });
    const stopped = await f.machine({ classId: 1, needsAdmin: true }, 'stopped');
    const unmanaged = await f.machine({ classId: 1, needsAdmin: true, managed: false });
    f.agent.failNext({ machineId: failedLast.id, message: 'Smoke test failed' });
    expect((await f.settled(await f.enqueue(failedLast, 'SmokeTest'))).status).toBe('FAILURE');
    const statusIssuesOf = async (machineId: number) => (await issuesOf(machineId)).filter((i) => i.source === 'server-status');

    const first = await run(minute);
    const mine = (ids: number[]) => first?.filter((x) => ids.includes(x.machineId));
    expect(mine([panicked.id, failedLast.id, healthy.id, stopped.id, unmanaged.id])?.map((x) => x.machineId)).toEqual([panicked.id, failedLast.id]);
    const [p] = await issuesOf(panicked.id);
    const expected = siteServerStatus({ machineId: panicked.id, needsAdmin: true, instanceStatus: 'running', lastFinishedStatus: null });
    const falseCheck = Object.entries(expected).find(([k, v]) => v === false && k !== 'operational')![0];
    // A sentence an operator reads, not the flags' names.
    const fault = SERVER_STATUS_FAULTS[falseCheck as keyof typeof SERVER_STATUS_FAULTS];
    expect(p).toMatchObject({ source: 'server-status', description: `Site server degraded: not operational, ${fault}`, tags: ['server-status', 'operational', falseCheck], count: 1 });
    const log = (await logsOf(p!.id))[0]!.content;
    expect(log.split('\n')).toEqual([
      `Site server status of ${(await f.machineRow(panicked.id)).name}: Degraded`,
      'operational: no',
      ...['diskSpaceOk', 'interServerCommOk', 'libraryImportOk', 'mongoOk', 'rabbitMqOk'].map((c) => `${c}: ${c === falseCheck ? 'no' : 'yes'}`),
    ]);
    expect(log).not.toContain('{');
    const [d] = await statusIssuesOf(failedLast.id);
    expect(d!.description).toMatch(/^Site server degraded: (disk space is low|the servers cannot reach each other|library import is failing|MongoDB is not responding|RabbitMQ is not responding)$/);
    expect(await issuesOf(healthy.id)).toHaveLength(0);
    expect(await issuesOf(stopped.id)).toHaveLength(0);
    expect(await issuesOf(unmanaged.id)).toHaveLength(0);

    // Within the interval (another worker, or a restart): nothing; after it, the fault recurs.
    expect(await run(30_000)).toBeUndefined();
    expect((await issuesOf(panicked.id))[0]!.count).toBe(1);
    expect((await run(30_000))?.map((x) => x.machineId)).toEqual(expect.arrayContaining([panicked.id, failedLast.id]));
    expect((await issuesOf(panicked.id))[0]!.count).toBe(2);

    // Resolved by an operator, it reopens at the next check while the fault lasts.
    await db().update(issues).set({ isResolved: true }).where(eq(issues.machineId, panicked.id));
    await run(minute);
    expect((await issuesOf(panicked.id))[0]).toMatchObject({ isResolved: false, count: 3 });

    // Reset (Panic cleared) and stopped: no more occurrences.
    await db().update(machines).set({ needsAdmin: false }).where(eq(machines.id, panicked.id));
    await run(minute);
    expect((await issuesOf(panicked.id))[0]!.count).toBe(3);
    expect((await statusIssuesOf(failedLast.id))[0]!.count).toBe(4);
    await db().update(cloudInstances).set({ status: 'stopped' }).where(eq(cloudInstances.machineId, failedLast.id));
    await run(minute);
    expect((await statusIssuesOf(failedLast.id))[0]!.count).toBe(4);
  });

  it('two workers checking at once: one of them runs it', async () => {
    clock += minute;
    const at = new Date(clock);
    const results = await Promise.all([runServerStatusCheck(db(), { at, intervalMs: minute }), runServerStatusCheck(db(), { at, intervalMs: minute })]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const { rows } = await db().execute<{ at: Date }>(sql`select last_run_at as at from engine_checks where name = ${SERVER_STATUS_CHECK}`);
    expect(new Date(rows[0]!.at).toISOString()).toBe(at.toISOString());
  });
});
