/**
 * Issues behave like Sentry's (issue 24 point 5; DESIGN §14; spec 2 §2.5, §7
 * Issues) through the real app on a real PostgreSQL: every failed probe of a
 * streak counts its issue up (count, last occurrence, a log each), a resolved
 * issue that fails again reopens; resolved issues are left out of the lists
 * unless asked (`status`); the tag filter's suggestions (`GET /issues/tags`);
 * bad input and missing permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ISSUE_TAG_SUGGESTIONS_MAX, type TIssue, type TIssueLogsPage, type TIssuesPage, type TIssueTagSuggestions } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { cloudInstances } from '../../db/schema.js';
import { raiseIssue } from '../../engine/issues/raise.js';
import { createSimulatedEndpoint } from '../../engine/probes/endpoint.js';
import { createProbeEngine } from '../../engine/probes/prober.js';

let t: TestApp;
const ids = { visible: 0, probed: 0, tagged: 0, cp: 0 };

const call = (url: string, as = 'operator', query?: Record<string, string>) => t.call({ method: 'GET', url, as, query });
const ok = async <T>(url: string, as = 'operator', query?: Record<string, string>) => {
  const res = await call(url, as, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const patch = (id: number, isResolved: boolean) => t.call({ method: 'PATCH', url: `/issues/${id}`, as: 'operator', body: { isResolved } });
const descriptions = (page: TIssuesPage) => page.items.map((i) => i.description);

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const account = await insertAccount(db, { name: 'Issues Stream', classId: 2 });
  const production = await insertAccount(db, { name: 'Issues Stream Production', classId: 5 });
  ids.probed = (
    await insertMachine(db, {
      accountId: account.id,
      classId: 2,
      name: 'stream-probed-launcher',
      isLauncher: true,
      componentConfig: { 'launcher.publicUrl': 'https://stream-probed.example' },
    })
  ).id;
  await db.insert(cloudInstances).values({
    machineId: ids.probed,
    cloudId: 'i-streamprobed',
    status: 'running',
    region: 'us-east-1',
    instanceTypeId: 3,
    hostName: 'stream-probed.example',
    ipAddress: '10.0.0.1',
    privateIpAddress: '10.0.0.2',
    storageSize: 100,
  });
  ids.tagged = (await insertMachine(db, { accountId: account.id, classId: 2, name: 'stream-tagged' })).id;
  ids.cp = (await insertMachine(db, { accountId: production.id, classId: 5, name: 'stream-cp' })).id;
  const raise = (machineId: number, description: string, tags: string[]) => raiseIssue(db, { machineId, source: 'operation', description, tags, content: 'log' });
  await raise(ids.tagged, 'Backup failed: stream one', ['stream', 'stream-backup', 'stream-disk']);
  await raise(ids.tagged, 'Backup failed: stream two', ['stream', 'stream-backup']);
  await raise(ids.tagged, 'SmokeTest failed: stream three', ['stream', 'stream-smoke']);
  await raise(ids.cp, 'Backup failed: stream production', ['stream', 'stream-secret']);
});
afterAll(() => t.close());

describe('a probe failing pass after pass', () => {
  it('counts one issue up at every failed probe: count 3, last occurrence the third; resolved, it reopens at the next failure', async () => {
    // The probe engine with the real issue sink, a clock of its own (before every other issue here) and a fault on our machine.
    const endpoint = createSimulatedEndpoint({ failMachines: ['stream-probed-launcher'] });
    let now = Date.parse('2020-02-01T10:00:00.000Z');
    const engine = createProbeEngine({ db: t.database.db, endpoint, intervalS: 60, now: () => new Date(now) });
    await t.database.db.execute(sql`update probe_cursor set through = ${new Date(now).toISOString()}::timestamptz where id = 1`);
    const passes: string[] = [];
    const pass = async () => {
      now += 60_000; // a whole interval: every URL is probed once
      passes.push(new Date(now).toISOString());
      expect(await engine.tick()).toBeGreaterThan(0);
    };
    const probeIssues = async (status = 'unresolved') =>
      (await ok<TIssuesPage>('/issues', 'viewer', { machineId: String(ids.probed), tags: 'probe', status })).items;

    for (let i = 0; i < 3; i++) await pass();
    const [issue, ...others] = await probeIssues();
    expect(others).toEqual([]);
    expect(issue).toMatchObject({
      machineName: 'stream-probed-launcher',
      source: 'probe',
      description: 'Launcher probe of stream-probed-launcher failed: no answer (simulated fault)',
      tags: ['probe', 'launcher'],
      count: 3,
      firstOccurrenceTime: passes[0],
      lastOccurrenceTime: passes[2],
      isResolved: false,
      logCount: 3,
    } satisfies Partial<TIssue>);
    const logs = await ok<TIssueLogsPage>(`/issues/${issue!.id}/logs`, 'viewer');
    expect(logs.items.map((l) => l.timestamp)).toEqual([...passes].reverse());
    expect(logs.items[0]!.content).toMatch(/^GET https:\/\/stream-probed\.example failed: no answer \(simulated fault\)\n/);

    // Resolved: out of the default list; the next failure reopens it (a regression) with the count going on.
    expect((await patch(issue!.id, true)).statusCode).toBe(200);
    expect(await probeIssues()).toEqual([]);
    await pass();
    expect(await probeIssues()).toMatchObject([{ id: issue!.id, count: 4, lastOccurrenceTime: passes[3], isResolved: false }]);

    // A success ends the streak and raises nothing; the next failure counts the same issue again.
    endpoint.failMachine('stream-probed-launcher', false);
    await pass();
    expect(await probeIssues()).toMatchObject([{ id: issue!.id, count: 4 }]);
    endpoint.failMachine('stream-probed-launcher', true);
    await pass();
    expect(await probeIssues('all')).toMatchObject([{ id: issue!.id, count: 5, lastOccurrenceTime: passes[5] }]);
  });
});

describe('resolved issues', () => {
  it('are left out unless asked: status unresolved (the default), resolved or all, in both lists', async () => {
    const machine = String(ids.tagged);
    const all = await ok<TIssuesPage>('/issues', 'viewer', { machineId: machine, status: 'all' });
    expect(descriptions(all)).toEqual(['SmokeTest failed: stream three', 'Backup failed: stream two', 'Backup failed: stream one']);
    const two = all.items[1]!;
    expect((await patch(two.id, true)).statusCode).toBe(200);
    try {
      for (const [url, query] of [
        ['/issues', { machineId: machine }],
        [`/machines/${ids.tagged}/issues`, {}],
      ] as const) {
        expect(await ok<TIssuesPage>(url, 'viewer', query)).toMatchObject({ totalItems: 2, items: [{ description: 'SmokeTest failed: stream three' }, { description: 'Backup failed: stream one' }] });
        expect(await ok<TIssuesPage>(url, 'viewer', { ...query, status: 'unresolved' })).toMatchObject({ totalItems: 2 });
        expect(await ok<TIssuesPage>(url, 'viewer', { ...query, status: 'resolved' })).toMatchObject({ totalItems: 1, items: [{ id: two.id, isResolved: true }] });
        expect((await ok<TIssuesPage>(url, 'viewer', { ...query, status: 'all' })).totalItems).toBe(3);
        // With the tag filter too.
        expect(descriptions(await ok<TIssuesPage>(url, 'viewer', { ...query, tags: 'stream-backup' }))).toEqual(['Backup failed: stream one']);
        expect(descriptions(await ok<TIssuesPage>(url, 'viewer', { ...query, tags: 'stream-backup', status: 'resolved' }))).toEqual(['Backup failed: stream two']);
      }
    } finally {
      await patch(two.id, false);
    }
  });

  it('answers 400 naming status for a value it does not know', async () => {
    for (const url of ['/issues', `/machines/${ids.tagged}/issues`, '/issues/tags']) {
      for (const status of ['open', '', 'Unresolved', 'x'.repeat(300)]) {
        const res = await call(url, 'operator', { status });
        expect(res.statusCode, `${url} ${status}`).toBe(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.json().errors.map((e: { propertyName: string }) => e.propertyName)).toEqual(['status']);
      }
    }
  });
});

describe('GET /issues/tags', () => {
  const tags = (as: string, query: Record<string, string>) => ok<TIssueTagSuggestions>('/issues/tags', as, query);

  it('answers the tags of the matching issues with their counts, most used first, without the filter’s own tags', async () => {
    const machine = String(ids.tagged);
    expect(await tags('viewer', { machineId: machine })).toEqual({
      items: [
        { tag: 'stream', issueCount: 3 },
        { tag: 'stream-backup', issueCount: 2 },
        { tag: 'stream-disk', issueCount: 1 },
        { tag: 'stream-smoke', issueCount: 1 },
      ],
    });
    // Narrowed by the tags already chosen: what else those issues carry.
    expect(await tags('viewer', { machineId: machine, tags: 'stream,stream-backup' })).toEqual({ items: [{ tag: 'stream-disk', issueCount: 1 }] });
    // Search (case-insensitive, literal) and limit.
    expect(await tags('viewer', { machineId: machine, search: 'SMOKE' })).toEqual({ items: [{ tag: 'stream-smoke', issueCount: 1 }] });
    expect(await tags('viewer', { machineId: machine, search: '_' })).toEqual({ items: [] });
    expect((await tags('viewer', { machineId: machine, limit: '2' })).items.map((s) => s.tag)).toEqual(['stream', 'stream-backup']);
    // Over every machine: the seeded issues' tags too, each at most once.
    const everywhere = (await tags('viewer', { limit: String(ISSUE_TAG_SUGGESTIONS_MAX) })).items;
    expect(everywhere.map((s) => s.tag)).toEqual(expect.arrayContaining(['operation', 'task', 'stream']));
    expect(new Set(everywhere.map((s) => s.tag)).size).toBe(everywhere.length);
    const counts = everywhere.map((s) => s.issueCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('counts by status: a resolved issue’s tags only when resolved ones are asked for', async () => {
    const machine = String(ids.tagged);
    const smoke = (await ok<TIssuesPage>('/issues', 'viewer', { machineId: machine, tags: 'stream-smoke' })).items[0]!;
    expect((await patch(smoke.id, true)).statusCode).toBe(200);
    try {
      expect((await tags('viewer', { machineId: machine })).items.map((s) => s.tag)).not.toContain('stream-smoke');
      expect(await tags('viewer', { machineId: machine, status: 'resolved' })).toEqual({
        items: [
          { tag: 'stream', issueCount: 1 },
          { tag: 'stream-smoke', issueCount: 1 },
        ],
      });
      expect((await tags('viewer', { machineId: machine, status: 'all' })).items[0]).toEqual({ tag: 'stream', issueCount: 3 });
    } finally {
      await patch(smoke.id, false);
    }
  });

  it('leaves out the tags of Customer Production machines’ issues without the group (a hidden machine matches nothing)', async () => {
    expect((await tags('operator', { search: 'stream-secret' })).items).toEqual([]);
    expect(await tags('operator', { machineId: String(ids.cp) })).toEqual({ items: [] });
    expect((await tags('operator', { machineId: '2000000000' })).items).toEqual([]);
    expect(await tags('admin', { search: 'stream-secret' })).toEqual({ items: [{ tag: 'stream-secret', issueCount: 1 }] });
    expect((await tags('admin', { machineId: String(ids.cp) })).items.map((s) => s.tag)).toEqual(['stream', 'stream-secret']);
  });

  it('answers 400 with every field error for bad input', async () => {
    for (const [query, fields] of [
      [{ limit: '0' }, ['limit']],
      [{ limit: String(ISSUE_TAG_SUGGESTIONS_MAX + 1) }, ['limit']],
      [{ limit: 'many' }, ['limit']],
      [{ machineId: 'x' }, ['machineId']],
      [{ machineId: '2147483648' }, ['machineId']],
      [{ search: 'x'.repeat(61) }, ['search']],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }, ['tags']],
      [{ machineId: '0', limit: '-1', status: 'open' }, ['machineId', 'status', 'limit']],
    ] as const) {
      const res = await call('/issues/tags', 'operator', query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().errors.map((e: { propertyName: string }) => e.propertyName).sort()).toEqual([...fields].sort());
    }
  });

  it('needs a valid token; any signed-in user may read it', async () => {
    expect((await t.call({ method: 'GET', url: '/issues/tags' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/issues/tags', token: 'nonsense' })).statusCode).toBe(401);
    expect((await call('/issues/tags', 'viewer')).statusCode).toBe(200);
  });
});
