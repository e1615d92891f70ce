/**
 * The issue calls through the real app on a real PostgreSQL (spec 2 §2.5, §7
 * Issues, §8; DESIGN §5, §14): pages newest first with the total, the machine
 * and tag filters, Customer Production hidden, the logs, resolving audited,
 * bad input and permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ISSUES_COUNT_AHEAD, type TIssue, type TIssueLogsPage, type TIssuesPage } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { auditActivities, issues } from '../../db/schema.js';
import { raiseIssue } from '../../engine/issues/raise.js';

let t: TestApp;
const ids = { a: 0, b: 0, cp: 0, cpInVisible: 0 };
/** Our issues by name. */
const issue: Record<string, number> = {};
const t0 = Date.parse('2031-05-01T00:00:00.000Z');

const call = (method: 'GET' | 'PATCH', url: string, as = 'operator', extra: { query?: Record<string, string>; body?: unknown } = {}) =>
  t.call({ method, url, as, ...extra });
const ok = async <T>(url: string, as = 'operator', query?: Record<string, string>) => {
  const res = await call('GET', url, as, { query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const idOf = async (machineId: number, description: string) =>
  (await t.database.db.select({ id: issues.id }).from(issues).where(and(eq(issues.machineId, machineId), eq(issues.description, description))))[0]!.id;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const visible = await insertAccount(db, { name: 'Issues Visible', classId: 2 });
  const cpAccount = await insertAccount(db, { name: 'Issues Production', classId: 5 });
  ids.a = (await insertMachine(db, { accountId: visible.id, classId: 2, name: 'issues-a' })).id;
  ids.b = (await insertMachine(db, { accountId: visible.id, classId: 1, name: 'issues-b' })).id;
  ids.cp = (await insertMachine(db, { accountId: cpAccount.id, classId: 5, name: 'issues-cp' })).id;
  ids.cpInVisible = (await insertMachine(db, { accountId: visible.id, classId: 5, name: 'issues-cp-machine' })).id;
  // Newest last occurrence first: the times are after every seeded issue.
  const raise = (machineId: number, description: string, tags: string[], minutes: number, content = 'log') =>
    raiseIssue(db, { machineId, source: 'operation', description, tags, content }, new Date(t0 + minutes * 60_000));
  await raise(ids.a, 'Backup failed: disk full', ['operation', 'Backup'], 1, 'first log');
  await raise(ids.a, 'Backup failed: disk full', ['operation', 'Backup', 'disk'], 5, 'second log');
  await raise(ids.a, 'SmokeTest failed: sign-in', ['operation', 'SmokeTest'], 3);
  await raise(ids.b, 'Backup failed: timeout', ['operation', 'Backup'], 4);
  await raise(ids.cp, 'Backup failed: production', ['operation', 'Backup'], 6);
  await raise(ids.cpInVisible, 'Backup failed: production machine', ['operation', 'Backup'], 7);
  issue.aBackup = await idOf(ids.a, 'Backup failed: disk full');
  issue.aSmoke = await idOf(ids.a, 'SmokeTest failed: sign-in');
  issue.bBackup = await idOf(ids.b, 'Backup failed: timeout');
  issue.cp = await idOf(ids.cp, 'Backup failed: production');
  issue.cpInVisible = await idOf(ids.cpInVisible, 'Backup failed: production machine');
});
afterAll(() => t.close());

describe('GET /issues', () => {
  it('answers visible issues, newest last occurrence first, with counts, tags, times and log counts', async () => {
    const operator = await ok<TIssuesPage>('/issues', 'operator', { limit: '3' });
    expect(operator.items.map((i) => i.id)).toEqual([issue.aBackup, issue.bBackup, issue.aSmoke]);
    expect(operator.items[0]).toEqual({
      id: issue.aBackup!,
      machineId: ids.a,
      machineName: 'issues-a',
      source: 'operation',
      description: 'Backup failed: disk full',
      tags: ['operation', 'Backup', 'disk'],
      count: 2,
      firstOccurrenceTime: new Date(t0 + 60_000).toISOString(),
      lastOccurrenceTime: new Date(t0 + 5 * 60_000).toISOString(),
      isResolved: false,
      logCount: 2,
    } satisfies TIssue);
    const admin = await ok<TIssuesPage>('/issues', 'admin', { limit: '3' });
    expect(admin.items.map((i) => i.id)).toEqual([issue.cpInVisible, issue.cp, issue.aBackup]);
    // Totals count what each user sees (the seeded issues too).
    expect(admin.totalItems - operator.totalItems).toBeGreaterThanOrEqual(2);
  });

  it('answers pages asked at once alike, a page asked after a change with the change, and each user the page of their own visibility (reads shared: lib/coalesce.ts)', async () => {
    await raiseIssue(t.database.db, { machineId: ids.b, source: 'operation', description: 'Shared read: changed', tags: ['operation'], content: 'log' }, new Date(t0));
    const changing = await idOf(ids.b, 'Shared read: changed');
    const page = (as: string) => ok<TIssuesPage>('/issues', as, { limit: '100', status: 'all' });
    const resolved = (p: TIssuesPage) => p.items.find((i) => i.id === changing)!.isResolved;
    const before = resolved(await page('operator'));
    const during = [...Array.from({ length: 6 }, () => page('operator')), ...Array.from({ length: 6 }, () => page('admin'))];
    expect((await call('PATCH', `/issues/${changing}`, 'operator', { body: { isResolved: !before } })).statusCode).toBe(200);
    const after = await Promise.all(Array.from({ length: 5 }, () => page('operator')));
    expect(after.map(resolved)).toEqual(Array(5).fill(!before));
    const pages = await Promise.all(during);
    // Customer Production's issues are the admin's only, however the reads were shared.
    expect(pages.map((p) => p.items.some((i) => i.id === issue.cp))).toEqual([...Array(6).fill(false), ...Array(6).fill(true)]);
    await t.database.db.delete(issues).where(eq(issues.id, changing));
  });

  it('pages on the server with the total', async () => {
    const first = await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.a), limit: '1' });
    expect(first).toMatchObject({ totalItems: 2, items: [{ id: issue.aBackup }] });
    const second = await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.a), limit: '1', startIndex: '1' });
    expect(second).toMatchObject({ totalItems: 2, items: [{ id: issue.aSmoke }] });
    const past = await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.a), limit: '1', startIndex: '5' });
    expect(past).toEqual({ totalItems: 2, totalCapped: false, items: [] });
  });

  it('counts at most ISSUES_COUNT_AHEAD past the page (totalCapped), exactly on a short last page', async () => {
    const account = await insertAccount(t.database.db, { name: 'Issues Many', classId: 2 });
    const many = (await insertMachine(t.database.db, { accountId: account.id, classId: 2, name: 'issues-many' })).id;
    const n = ISSUES_COUNT_AHEAD + 15;
    await t.database.db.execute(sql`
      insert into issues (machine_id, source, fingerprint, description, tags, first_occurrence_time, last_occurrence_time)
      select ${many}, 'operation', 'many ' || k, 'Many ' || k, '{many}', now(), now() - k * interval '1 second' from generate_series(1, ${n}) k`);
    for (const as of ['operator', 'admin']) {
      expect(await ok<TIssuesPage>('/issues', as, { machineId: String(many), limit: '10' })).toMatchObject({ totalItems: 10 + ISSUES_COUNT_AHEAD, totalCapped: true });
      expect(await ok<TIssuesPage>('/issues', as, { tags: 'many', limit: '10' })).toMatchObject({ totalItems: 10 + ISSUES_COUNT_AHEAD, totalCapped: true });
      // Stable while paging through the first ISSUES_COUNT_AHEAD issues; exact in the block holding the end.
      expect(await ok<TIssuesPage>('/issues', as, { tags: 'many', limit: '10', startIndex: '10' })).toMatchObject({ totalItems: 10 + ISSUES_COUNT_AHEAD, totalCapped: true });
      expect(await ok<TIssuesPage>('/issues', as, { tags: 'many', limit: '10', startIndex: String(ISSUES_COUNT_AHEAD) })).toMatchObject({ totalItems: n, totalCapped: false });
      const last = await ok<TIssuesPage>('/issues', as, { machineId: String(many), limit: '10', startIndex: String(n - 5) });
      expect(last).toMatchObject({ totalItems: n, totalCapped: false });
      expect(last.items.map((i) => i.description)).toEqual([11, 12, 13, 14, 15].map((k) => `Many ${ISSUES_COUNT_AHEAD + k}`));
      expect(await ok<TIssuesPage>(`/machines/${many}/issues`, as, { limit: '1' })).toMatchObject({ totalItems: 1 + ISSUES_COUNT_AHEAD, totalCapped: true });
    }
  });

  it('filters by machine and by tags (every tag, trimmed, blanks and duplicates ignored)', async () => {
    const backup = await ok<TIssuesPage>('/issues', 'operator', { tags: 'Backup, operation,,Backup', limit: '100' });
    const ours = backup.items.map((i) => i.id).filter((id) => Object.values(issue).includes(id));
    expect(ours).toEqual([issue.aBackup, issue.bBackup]);
    expect((await ok<TIssuesPage>('/issues', 'operator', { tags: 'Backup,disk' })).items.map((i) => i.id)).toEqual([issue.aBackup]);
    expect((await ok<TIssuesPage>('/issues', 'operator', { machineId: String(ids.b), tags: 'SmokeTest' })).totalItems).toBe(0);
    // A hidden machine as filter finds nothing, like an unknown one.
    expect(await ok<TIssuesPage>('/issues', 'operator', { machineId: String(ids.cp) })).toEqual({ items: [], totalItems: 0, totalCapped: false });
    expect(await ok<TIssuesPage>('/issues', 'operator', { machineId: '2000000000' })).toEqual({ items: [], totalItems: 0, totalCapped: false });
  });

  it('answers 400 naming the field for bad input', async () => {
    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ startIndex: '-1' }, 'startIndex'],
      [{ machineId: 'x' }, 'machineId'],
      [{ machineId: '2147483648' }, 'machineId'],
      [{ tags: 'x'.repeat(61) }, 'tags'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }, 'tags'],
    ] as const) {
      const res = await call('GET', '/issues', 'operator', { query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors[0].propertyName).toBe(field);
    }
  });

  it('needs a token', async () => {
    expect((await t.call({ method: 'GET', url: '/issues' })).statusCode).toBe(401);
  });
});

describe('GET /machines/{id}/issues', () => {
  it("answers the machine's issues filtered by tags; 404 for a hidden or unknown machine", async () => {
    expect((await ok<TIssuesPage>(`/machines/${ids.a}/issues`, 'viewer')).items.map((i) => i.id)).toEqual([issue.aBackup, issue.aSmoke]);
    expect((await ok<TIssuesPage>(`/machines/${ids.a}/issues`, 'viewer', { tags: 'SmokeTest' })).items.map((i) => i.id)).toEqual([issue.aSmoke]);
    expect((await call('GET', `/machines/${ids.cp}/issues`)).statusCode).toBe(404);
    expect((await call('GET', `/machines/${ids.cpInVisible}/issues`)).statusCode).toBe(404);
    expect((await ok<TIssuesPage>(`/machines/${ids.cp}/issues`, 'admin')).totalItems).toBe(1);
    expect((await call('GET', '/machines/2000000000/issues')).statusCode).toBe(404);
  });
});

describe('GET /issues/{id}/logs', () => {
  it('answers the logs newest first, paged; 404 for a hidden or unknown issue', async () => {
    const logs = await ok<TIssueLogsPage>(`/issues/${issue.aBackup}/logs`, 'viewer');
    expect(logs.totalItems).toBe(2);
    expect(logs.items.map((l) => [l.content, l.tags, l.size, l.complete, l.timestamp])).toEqual([
      ['second log', ['operation', 'Backup', 'disk'], 10, true, new Date(t0 + 5 * 60_000).toISOString()],
      ['first log', ['operation', 'Backup'], 9, true, new Date(t0 + 60_000).toISOString()],
    ]);
    expect((await ok<TIssueLogsPage>(`/issues/${issue.aBackup}/logs`, 'viewer', { startIndex: '1', limit: '1' })).items[0]!.content).toBe('first log');
    expect((await call('GET', `/issues/${issue.cp}/logs`)).statusCode).toBe(404);
    expect((await call('GET', `/issues/${issue.cpInVisible}/logs`)).statusCode).toBe(404);
    expect((await call('GET', `/issues/${issue.cp}/logs`, 'admin')).statusCode).toBe(200);
    expect((await call('GET', '/issues/2000000000/logs')).statusCode).toBe(404);
  });
});

describe('PATCH /issues/{id}', () => {
  it('resolves and reopens, audited as UpdateIssue with the change; the same value records nothing', async () => {
    const res = await call('PATCH', `/issues/${issue.bBackup}`, 'operator', { body: { isResolved: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: issue.bBackup, isResolved: true, count: 1 });
    expect((await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.b), status: 'all' })).items[0]!.isResolved).toBe(true);
    const again = await call('PATCH', `/issues/${issue.bBackup}`, 'operator', { body: { isResolved: true } });
    expect(again.json()).toMatchObject({ isResolved: true });
    const updates = () =>
      t.database.db.select().from(auditActivities).where(and(eq(auditActivities.action, 'UpdateIssue'), sql`${auditActivities.params}->>'issueId' = ${String(issue.bBackup)}`));
    const activities = await updates();
    expect(activities).toHaveLength(1);
    expect(activities[0]).toMatchObject({
      userName: 'operator',
      params: { issueId: issue.bBackup, machineId: ids.b, machineName: 'issues-b', isResolved: true },
      changes: [{ entityName: 'Issue', propertyName: 'isResolved', oldValue: false, newValue: true }],
    });
    expect((await call('PATCH', `/issues/${issue.bBackup}`, 'operator', { body: { isResolved: false } })).json()).toMatchObject({ isResolved: false });
    expect(await updates()).toHaveLength(2);
  });

  it('a resolved issue that occurs again is open again in the list', async () => {
    await call('PATCH', `/issues/${issue.aSmoke}`, 'operator', { body: { isResolved: true } });
    await raiseIssue(t.database.db, { machineId: ids.a, source: 'operation', description: 'SmokeTest failed: sign-in', tags: ['operation'], content: 'again' });
    const page = await ok<TIssuesPage>(`/machines/${ids.a}/issues`);
    expect(page.items.find((i) => i.id === issue.aSmoke)).toMatchObject({ isResolved: false, count: 2, logCount: 2 });
  });

  it('needs write; 404 for a hidden or unknown issue; 400 for a bad body', async () => {
    expect((await call('PATCH', `/issues/${issue.aBackup}`, 'viewer', { body: { isResolved: true } })).statusCode).toBe(403);
    expect((await call('PATCH', `/issues/${issue.cp}`, 'operator', { body: { isResolved: true } })).statusCode).toBe(404);
    expect((await call('PATCH', `/issues/${issue.cpInVisible}`, 'operator', { body: { isResolved: true } })).statusCode).toBe(404);
    expect((await call('PATCH', '/issues/2000000000', 'operator', { body: { isResolved: true } })).statusCode).toBe(404);
    for (const body of [{}, { isResolved: 'yes' }, { isResolved: null }]) {
      const res = await call('PATCH', `/issues/${issue.aBackup}`, 'operator', { body });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].propertyName).toBe('isResolved');
    }
    expect((await call('PATCH', `/issues/${issue.cp}`, 'admin', { body: { isResolved: true } })).statusCode).toBe(200);
    expect((await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.a), status: 'all' })).items.every((i) => !i.isResolved)).toBe(true);
  });
});
