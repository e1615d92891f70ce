/**
 * `GET /metrics` (issue 28 point 1) through the real app on a test database:
 * off without `METRICS_TOKEN`, 401 without its bearer token, the Prometheus
 * text format that parses (and that `promtool check metrics` accepts when
 * promtool is on the machine) with names and labels as Prometheus' naming
 * guide says; a task the engine ran, an operation an MMA ran and the requests
 * answered are counted, and the fleet gauges follow the database.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import type { TTask } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { insertAccount, insertMachine } from '../../test/fixtures.js';
import { newClaimedOperation } from '../../test/mma-agent-fixtures.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from '../../test/db-url.js';
import { buildApp } from '../app.js';
import { createSimulatedCloud } from '../engine/cloud/simulated.js';
import { createTaskEvents } from '../engine/push/events.js';
import { createTaskEngine, type TaskEngine } from '../engine/tasks/engine.js';
import { createSecretBox } from '../lib/secret-box.js';
import { createFleetMetrics, type FleetMetrics } from './fleet-metrics.js';

const TOKEN = 'metrics-test-token-0123456789';
let t: TestApp;
let metrics: FleetMetrics;
let engine: TaskEngine;

beforeAll(async () => {
  const events = createTaskEvents();
  metrics = createFleetMetrics({ events });
  t = await startTestApp({ events, metrics: { metrics, token: TOKEN } });
  metrics.watchFleet(t.database.db, { maxAgeMs: 0 });
  const cloud = createSimulatedCloud({ db: t.database.db, delayMs: 0 });
  engine = createTaskEngine({ db: t.database.db, cloud, events, secrets: createSecretBox(TEST_DATA_KEY), workers: 2, batchSize: 4, pollingIntervalSeconds: 0.5, sweepMs: 500 });
  await engine.start();
});
afterAll(async () => {
  await engine.stop();
  metrics.close();
  await t.close();
});

const get = (authorization?: string) => t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

type Values = Awaited<ReturnType<FleetMetrics['registry']['getMetricsAsJSON']>>;

/**
 * A scrape with the token: its text, its families by name as parsed from the
 * text, and the registry's values beside it (parse-prometheus-text-format 1
 * merges a labelled histogram's series into one, so the values of histograms
 * are read from prom-client's JSON of the same registry).
 */
async function scrape(): Promise<{ text: string; families: Map<string, PrometheusFamily>; values: Values }> {
  const res = await get(`Bearer ${TOKEN}`);
  expect(res.statusCode, res.body).toBe(200);
  return { text: res.body, families: new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f])), values: await metrics.registry.getMetricsAsJSON() };
}

/** The value of the series of `name` whose labels include `labels` (a histogram's `_count`), 0 when there is none. */
function valueOf(values: Values, name: string, labels: Record<string, string> = {}): number {
  const family = values.find((f) => f.name === name);
  const series = family?.values.find((v) => {
    // A histogram's series are its buckets, sum and count, each named.
    const metricName = (v as { metricName?: string }).metricName;
    return (metricName === undefined || metricName === name || metricName === `${name}_count`) && Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want);
  });
  return Number(series?.value ?? 0);
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const app = await buildApp({
      db: t.database.db,
      config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000, perAddress: 1_000 } },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it("refuses a scrape without its token, with another, or with a user's: 401 problem details", async () => {
    const userToken = await t.login('admin');
    for (const header of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${userToken}`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await get(header);
      expect(res.statusCode, String(header)).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 401, detail: 'The metrics token (METRICS_TOKEN) is required as a bearer token' });
    }
  });

  it("answers the text format, parsed, with names and labels as Prometheus' naming guide says (and promtool, when there)", async () => {
    const res = await get(`Bearer ${TOKEN}`);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { text, families, values } = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(families.has(name), name).toBe(true);
    }
    for (const f of families.values()) {
      expect(f.name, f.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(f.help.length, `${f.name} has help`).toBeGreaterThan(0);
      if (f.type === 'COUNTER') expect(f.name).toMatch(/_total$/);
      // Ours (prom-client's own nodejs_active_resources_total is a gauge).
      if (f.type !== 'COUNTER' && f.name.startsWith('fleet_')) expect(f.name, `${f.name} is not a counter`).not.toMatch(/_total$/);
      if (f.type === 'HISTOGRAM') expect(f.name, `${f.name} has its unit`).toMatch(/_(seconds|bytes)$/);
      for (const m of f.metrics) {
        for (const label of Object.keys(m.labels ?? {})) expect(['id', 'machine', 'account', 'url', 'path', 'user'], `${f.name} label ${label}`).not.toContain(label);
      }
    }
    const fleet = [...families.keys()].filter((n) => n.startsWith('fleet_'));
    expect(fleet.sort()).toEqual(
      [
        'fleet_http_request_duration_seconds',
        'fleet_issues_open',
        'fleet_machines',
        'fleet_machines_in_status',
        'fleet_operation_queue_wait_seconds',
        'fleet_operation_run_duration_seconds',
        'fleet_operations',
        'fleet_operations_finished_total',
        'fleet_probe_lag_seconds',
        'fleet_probes_total',
        'fleet_push_clients',
        'fleet_rollouts',
        'fleet_task_queue_wait_seconds',
        'fleet_task_run_duration_seconds',
        'fleet_tasks',
        'fleet_tasks_finished_total',
      ],
    );
    // The demo fleet's machines by class, as the top bar counts them.
    const stats = (await t.call({ method: 'GET', url: '/machines/stats', as: 'admin' })).json() as { classStats: { class: { name: string }; total: number }[] };
    for (const c of stats.classStats) expect(valueOf(values, 'fleet_machines', { class: c.class.name }), c.class.name).toBe(c.total);
    expect(families.get('fleet_rollouts')!.metrics.map((m) => m.labels!.status).sort()).toEqual(['Aborted', 'Completed', 'Halted', 'Paused', 'Running']);

    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    if (promtool.error && (promtool.error as NodeJS.ErrnoException).code === 'ENOENT') return; // no promtool on this machine
    expect(promtool.status, `${promtool.stdout}${promtool.stderr}`).toBe(0);
  });

  it("the Grafana dashboard (docs/grafana/fleet-console.json) asks only for metrics the server exports", async () => {
    const dashboard = JSON.parse(await readFile(new URL('../../../../docs/grafana/fleet-console.json', import.meta.url), 'utf8')) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const { families } = await scrape();
    const asked = dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(/\b(fleet|process|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(asked.length).toBeGreaterThan(20);
    for (const name of new Set(asked)) {
      const family = families.get(name) ?? families.get(name.replace(/_(bucket|count|sum)$/, ''));
      expect(family, name).toBeDefined();
      if (family!.name !== name) expect(family!.type, name).toBe('HISTOGRAM');
    }
  });

  it('times requests by method, route template and status, never by id or path', async () => {
    expect((await t.call({ method: 'GET', url: '/machines/987654', as: 'admin' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/nowhere-98765' })).statusCode).toBe(404);
    const { text, values } = await scrape();
    expect(valueOf(values, 'fleet_http_request_duration_seconds', { method: 'GET', route: '/api/v1/machines/:id', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(values, 'fleet_http_request_duration_seconds', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('98765');
  });

  it('counts a task the engine ran: its queue wait, run time and outcome, and the tasks gauge', async () => {
    const before = (await scrape()).values;
    const account = await insertAccount(t.database.db, { name: 'Metrics tasks', classId: 3 });
    const m = await insertMachine(t.database.db, { accountId: account.id, classId: 3, instanceTypeId: 4 });
    const cloud = createSimulatedCloud({ db: t.database.db, delayMs: 0 });
    const { cloudId } = await cloud.launch({ machineId: m.id, region: 'eu-west-1', instanceTypeId: 4, clientToken: `metrics-${m.id}` });
    await cloud.describe(cloudId);
    const stop = await t.call({ method: 'POST', url: `/machines/${m.id}/stop`, as: 'admin' });
    expect(stop.statusCode, stop.body).toBe(200);
    const task = stop.json() as TTask;
    await expect
      .poll(async () => ((await t.call({ method: 'GET', url: `/machines/${m.id}/tasks`, as: 'admin' })).json() as { items: TTask[] }).items.find((x) => x.id === task.id)?.status, {
        timeout: 20_000,
      })
      .toBe('Completed');
    const after = (await scrape()).values;
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('fleet_tasks_finished_total', { type: 'StopMachine', outcome: 'Completed' })).toBe(1);
    expect(delta('fleet_task_queue_wait_seconds', { type: 'StopMachine' })).toBe(1);
    expect(delta('fleet_task_run_duration_seconds', { type: 'StopMachine' })).toBe(1);
    expect(valueOf(after, 'fleet_tasks', { state: 'running' })).toBe(0);
  });

  it('counts an operation an MMA ran, and the operations gauge sees it running, then not', async () => {
    const before = (await scrape()).values;
    const claimed = await newClaimedOperation(t);
    const running = (await scrape()).values;
    expect(valueOf(running, 'fleet_operations', { state: 'running' })).toBe(valueOf(before, 'fleet_operations', { state: 'running' }) + 1);
    expect(valueOf(running, 'fleet_operation_queue_wait_seconds', { type: 'SmokeTest' })).toBe(valueOf(before, 'fleet_operation_queue_wait_seconds', { type: 'SmokeTest' }) + 1);

    const finish = await t.call({ method: 'POST', url: `/mma-agent/operations/${claimed.operationId}/finish`, token: claimed.token, body: { attempt: claimed.attempt, status: 'SUCCESS' } });
    expect(finish.statusCode, finish.body).toBe(200);
    const after = (await scrape()).values;
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('fleet_operations_finished_total', { type: 'SmokeTest', outcome: 'SUCCESS' })).toBe(1);
    expect(delta('fleet_operation_run_duration_seconds', { type: 'SmokeTest' })).toBe(1);
    expect(delta('fleet_operations', { state: 'running' })).toBe(0);
  });
});
