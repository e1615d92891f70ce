/**
 * The fleet gauges of `/metrics` (issue 28 point 1; `README.md` here), read from
 * the database when Prometheus scrapes: machine tasks queued and running,
 * operations queued, pending approval and running, rollouts by status, live
 * machines by class and by class and status (the top bar's counts,
 * `modules/machines/fleet-counts.ts`), open issues by source.
 *
 * They describe the whole fleet, not this process: only the API roles (`all`,
 * `api`) export them, so a Prometheus scraping an API and a worker does not
 * count them twice. One read serves the scrapes of {@link FLEET_GAUGES_MAX_AGE_MS}
 * (two Prometheus servers, or a scrape and a person's curl, cost one). A read
 * that fails (the database away) leaves the gauges out of that scrape
 * rather than failing it: the process metrics still tell what happened.
 */
import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import { className, ISSUE_SOURCES, MACHINE_STATUSES, ROLLOUT_STATUSES } from '@fleet/contracts';
import type { Db } from '../db/client.js';
import { countScopedMachines, type ClassMachineCounts } from '../modules/machines/fleet-counts.js';

/** How long one read of the fleet serves scrapes, ms. */
export const FLEET_GAUGES_MAX_AGE_MS = 5_000;

interface FleetCounts {
  tasks: { queued: number; running: number };
  operations: { queued: number; pending_approval: number; running: number };
  rollouts: Record<string, number>;
  issues: Record<string, number>;
  machines: ClassMachineCounts[];
}

/** One read of the fleet's counts (two statements). */
async function readFleet(db: Db): Promise<FleetCounts> {
  const [{ rows }, machines] = await Promise.all([
    db.execute<Omit<FleetCounts, 'machines'>>(sql`
      select
        json_build_object(
          'queued', (select count(*) from machine_tasks where status = 'New'),
          'running', (select count(*) from machine_tasks where status = 'Running')) as tasks,
        json_build_object(
          'queued', (select count(*) from operations where status is null and finished_at is null and not pending),
          'pending_approval', (select count(*) from operations where pending and finished_at is null),
          'running', (select count(*) from operations where status = 'RUNNING')) as operations,
        (select coalesce(json_object_agg(status, n), '{}') from (select status, count(*) as n from rollouts group by status) r) as rollouts,
        (select coalesce(json_object_agg(source, n), '{}')
           from (select source, count(*) as n from issues where not is_resolved group by source) i) as issues`),
    countScopedMachines(db, { hiddenClassIds: [] }),
  ]);
  return { ...rows[0]!, machines };
}

/** `needsAdmin` → `needs_admin`: a label value in Prometheus' snake case. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Registers the fleet gauges on `registry`, each set at a scrape from a read of
 * the fleet at most `maxAgeMs` old (default {@link FLEET_GAUGES_MAX_AGE_MS}).
 */
export function registerFleetGauges(registry: Registry, db: Db, { maxAgeMs = FLEET_GAUGES_MAX_AGE_MS }: { maxAgeMs?: number } = {}): void {
  let cached: { at: number; counts: Promise<FleetCounts | undefined> } | undefined;
  /** The fleet's counts at most `maxAgeMs` old; undefined when the database could not be read. */
  const fleet = () => {
    if (!cached || Date.now() - cached.at > maxAgeMs) {
      cached = { at: Date.now(), counts: readFleet(db).catch(() => undefined) };
    }
    return cached.counts;
  };

  /** A gauge set at each scrape by `set` from the fleet's counts (none when they could not be read). */
  const fleetGauge = (name: string, help: string, labelNames: string[], set: (gauge: Gauge, counts: FleetCounts) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        const counts = await fleet();
        if (counts) set(this, counts);
      },
    });

  fleetGauge('fleet_tasks', 'Machine tasks of the fleet by state: queued (New) or running.', ['state'], (g, c) => {
    for (const [state, n] of Object.entries(c.tasks)) g.set({ state }, Number(n));
  });
  fleetGauge('fleet_operations', 'Operations of the fleet by state: queued, pending_approval or running.', ['state'], (g, c) => {
    for (const [state, n] of Object.entries(c.operations)) g.set({ state }, Number(n));
  });
  fleetGauge('fleet_rollouts', 'Rollouts by status (Running, Paused, Halted, Aborted, Completed).', ['status'], (g, c) => {
    for (const status of ROLLOUT_STATUSES) g.set({ status }, Number(c.rollouts[status] ?? 0));
  });
  fleetGauge('fleet_issues_open', 'Open (unresolved) issues by source.', ['source'], (g, c) => {
    for (const source of ISSUE_SOURCES) g.set({ source }, Number(c.issues[source] ?? 0));
  });
  fleetGauge('fleet_machines', 'Live machines of live accounts by machine class (the top bar counts).', ['class'], (g, c) => {
    for (const row of c.machines) g.inc({ class: className(row.classId) }, row.machines);
  });
  fleetGauge(
    'fleet_machines_in_status',
    'Live machines by machine class and status (needs_admin, unmanaged, manual_maintenance, stopped, turbo, obsolete, idle; a machine may have several).',
    ['class', 'status'],
    (g, c) => {
      for (const row of c.machines) for (const status of MACHINE_STATUSES) g.inc({ class: className(row.classId), status: snake(status) }, row[status]);
    },
  );
}
