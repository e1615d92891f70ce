/**
 * The process's Prometheus metrics (issue 28 point 1; `README.md` beside this
 * file lists every metric and its labels). One {@link FleetMetrics} per
 * process, made by `main.ts` when `METRICS_TOKEN` is set:
 *
 * - process and Node.js metrics (prom-client's defaults: `process_*`, `nodejs_*`);
 * - `fleet_http_request_duration_seconds{method,route,status_code}`, observed by
 *   the app's `onResponse` hook ({@link FleetMetrics.observeRequest}); `route` is
 *   the route's template (`/api/v1/machines/:id`), never the URL;
 * - the engine's counters and histograms, from the fleet events of this process
 *   (`engine/push/events.ts`): tasks and operations finished by type and
 *   outcome, queue-to-start and run time;
 * - the probes' lag and count ({@link FleetMetrics.watchProbes}) and the push
 *   channel's connected clients ({@link FleetMetrics.watchPushClients});
 * - once {@link FleetMetrics.watchFleet} gave it the database, the fleet read at each scrape
 *   (`fleet-gauges.ts`): tasks and operations queued, pending approval and
 *   running, rollouts by status, machines by class and status, open issues by
 *   source.
 *
 * Invariant: no label takes an unbounded value (no id, name of a machine or
 * account, or URL): types, outcomes, statuses, classes, sources and route
 * templates are finite sets.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TaskEvents } from '../engine/push/events.js';
import type { Db } from '../db/client.js';
import { registerFleetGauges } from './fleet-gauges.js';

/** The probe engine's counters the metrics read (`engine/probes/prober.ts` `ProbeStats`). */
export interface ProbeCounts {
  /** Probes stored since the process started. */
  probes: number;
  /** How far behind the clock the probe cursor was at the last tick, ms. */
  lagMs: number;
}

export interface FleetMetrics {
  readonly registry: Registry;
  /** Records one answered HTTP request: its method, route template (or `unmatched`), status and duration in seconds. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /** Reads the probe engine's counts at each scrape (the worker's probes part). */
  watchProbes(read: () => ProbeCounts): void;
  /** Reads the number of push channel clients connected to this process at each scrape. */
  watchPushClients(read: () => number): void;
  /** Adds the fleet gauges, read from `db` at each scrape (`fleet-gauges.ts`; the API roles only, so that they count once). */
  watchFleet(db: Db, opts?: { maxAgeMs?: number }): void;
  /** The exposition in the Prometheus text format, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
  /** Stops listening to the fleet events. */
  close(): void;
}

export interface FleetMetricsOptions {
  /** The process's fleet events (the engine's counters and histograms). */
  events: TaskEvents;
}

/** Seconds between an ISO time and another (null when either is missing or the span is negative). */
function secondsBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const s = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** Buckets of engine waits and runs, seconds: from 10 ms (the in-process agent) to an hour (a long backup). */
const ENGINE_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800, 3600];

export function createFleetMetrics({ events }: FleetMetricsOptions): FleetMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'fleet_http_request_duration_seconds',
    help: 'HTTP requests answered by the API and the console, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  /** A counter of ended work by type and outcome. */
  const finishedCounter = (name: string, help: string) => new Counter({ name, help, labelNames: ['type', 'outcome'] as const, registers: [registry] });
  /** A histogram of engine waits or runs by type, seconds. */
  const engineHistogram = (name: string, help: string) => new Histogram({ name, help, labelNames: ['type'] as const, buckets: ENGINE_BUCKETS, registers: [registry] });
  const tasksFinished = finishedCounter('fleet_tasks_finished_total', 'Machine tasks that ended in this process, by type and outcome (Completed or Failed).');
  const taskQueueWait = engineHistogram('fleet_task_queue_wait_seconds', 'Time from a machine task being queued to its start, by type.');
  const taskRun = engineHistogram('fleet_task_run_duration_seconds', 'Time from a machine task starting to its end, by type.');
  const operationsFinished = finishedCounter('fleet_operations_finished_total', 'Operations that ended in this process, by type and outcome (SUCCESS or FAILURE).');
  const operationQueueWait = engineHistogram(
    'fleet_operation_queue_wait_seconds',
    'Time from an operation being queued to its start (again when resumed), by type; approvals and not-before times included.',
  );
  const operationRun = engineHistogram('fleet_operation_run_duration_seconds', 'Time from an operation starting to its end, by type.');

  const unsubscribe = events.subscribe((event) => {
    if ('task' in event) {
      const { task } = event;
      if (event.name === 'TaskStarted') {
        const wait = secondsBetween(task.queuedAt, task.startedAt);
        if (wait !== null) taskQueueWait.observe({ type: task.type }, wait);
      } else if (event.name === 'TaskFinished') {
        tasksFinished.inc({ type: task.type, outcome: task.status });
        const run = secondsBetween(task.startedAt, task.completedAt);
        if (run !== null) taskRun.observe({ type: task.type }, run);
      }
    } else if ('operation' in event) {
      const { operation } = event;
      if (event.name === 'OperationStarted') {
        const wait = secondsBetween(operation.timestamp, operation.startTime);
        if (wait !== null) operationQueueWait.observe({ type: operation.typeName }, wait);
      } else if (event.name === 'OperationFinished' && operation.status) {
        operationsFinished.inc({ type: operation.typeName, outcome: operation.status });
        const run = secondsBetween(operation.startTime, operation.finishTime);
        if (run !== null) operationRun.observe({ type: operation.typeName }, run);
      }
    }
  });

  let probes: (() => ProbeCounts) | undefined;
  let probesCounted = 0;
  new Counter({
    name: 'fleet_probes_total',
    help: "Probes of machines' URLs stored by this process (its rate is the probes per second).",
    registers: [registry],
    collect() {
      const now = probes?.().probes ?? probesCounted;
      if (now > probesCounted) this.inc(now - probesCounted);
      probesCounted = now;
    },
  });
  new Gauge({
    name: 'fleet_probe_lag_seconds',
    help: 'How far behind the clock the probe cursor was at the last probe tick of this process.',
    registers: [registry],
    collect() {
      if (probes) this.set(probes().lagMs / 1000);
    },
  });
  let pushClients: (() => number) | undefined;
  new Gauge({
    name: 'fleet_push_clients',
    help: 'Browsers connected to the push channel (/taskHub) of this process.',
    registers: [registry],
    collect() {
      if (pushClients) this.set(pushClients());
    },
  });

  let watchingFleet = false;

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      http.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    watchProbes(read) {
      probes = read;
    },
    watchPushClients(read) {
      pushClients = read;
    },
    watchFleet(db, opts) {
      if (watchingFleet) return;
      watchingFleet = true;
      registerFleetGauges(registry, db, opts);
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close: unsubscribe,
  };
}
