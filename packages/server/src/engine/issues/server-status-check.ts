/**
 * The agent's periodic site server status check (DESIGN §14; `README.md` beside
 * this file): every `intervalMs` (`SERVER_STATUS_INTERVAL_S`, default 60 s) it
 * reads the site server status of every running managed machine, as
 * `GET /machines/{id}/site-server-status` answers it (the simulated agent's
 * status, `modules/operations/site-server-status.ts`, derived from the machine's
 * state), and raises a `server-status` issue for each one with a false flag.
 *
 * - Once per interval with several workers: a run first claims the interval in
 *   `engine_checks` (a conditional upsert: only the first worker whose last run
 *   is older than 90 % of the interval gets the row), and raises its issues in
 *   that transaction, so a crash mid-run rolls the claim back and the next
 *   worker runs it again: no occurrence is lost or counted twice.
 * - Only running managed machines not being terminated: a stopped machine answers
 *   Stopped with every flag false, which is its state, not a fault; an unmanaged
 *   one is not the agent's.
 * - Set-based: the machines whose status can have a false flag (Panic, or their
 *   latest finished operation failed; on a remote class, a false flag in its
 *   MMA's last report, issue 27) are read in one statement, so the check
 *   costs one scan of machines however large the fleet.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client.js';
import { isDatabaseGone } from '../../db/client.js';
import type { TSiteServerStatus } from '@fleet/contracts';
import { SITE_SERVER_CHECKS, siteServerStatus } from '../../modules/operations/site-server-status.js';
import { remoteClass } from '../operations/start-rules.js';
import { raiseIssues } from './raise.js';

/** The row of `engine_checks` this check claims. */
export const SERVER_STATUS_CHECK = 'server-status';
/** Default interval of the check, ms (`SERVER_STATUS_INTERVAL_S` 60). */
export const SERVER_STATUS_INTERVAL_MS = 60_000;

/** A remote machine's report `r` has a false flag (a machine not reported yet has none: its MMA has said nothing). */
const REPORTED_FAULT = sql.raw(
  `(${['operational', ...SITE_SERVER_CHECKS].map((f) => `(r.site_server_status->>'${f}')::boolean is false`).join(' or ')})`,
);

/** A flag of the site server status: `operational` and the checks. */
export type ServerStatusFlag = 'operational' | (typeof SITE_SERVER_CHECKS)[number];

/** The flags in the order the issue names them, `operational` first. */
const STATUS_FLAGS: readonly ServerStatusFlag[] = ['operational', ...SITE_SERVER_CHECKS];

/** A running managed machine whose status has a false flag. */
export interface ServerStatusFault {
  machineId: number;
  machineName: string;
  /** The flags that are false, `operational` first. */
  falseFlags: ServerStatusFlag[];
  status: ReturnType<typeof siteServerStatus>;
}

/**
 * The running managed machines whose site server status has a false flag, as
 * the status call would answer now: Panic (needsAdmin) or a failed latest
 * finished operation, active instance `running` (the same facts, read the same
 * way, as `selectSiteServerFacts`).
 */
export async function selectServerStatusFaults(db: DbOrTx): Promise<ServerStatusFault[]> {
  const { rows } = await db.execute<{
    id: number;
    name: string;
    needsAdmin: boolean;
    lastFinishedStatus: string | null;
    remote: boolean;
    reported: TSiteServerStatus | null;
  }>(sql`
    select m.id, m.name, m.needs_admin as "needsAdmin", last.status as "lastFinishedStatus", ${remoteClass} as remote, r.site_server_status as reported
    from machines m
    left join lateral (select o.status from operations o
      where o.machine_id = m.id and o.finished_at is not null order by o.id desc limit 1) last on true
    left join machine_reports r on r.machine_id = m.id
    where m.deleted_at is null and m.managed and not m.terminate
      and (case when ${remoteClass} then ${REPORTED_FAULT} else m.needs_admin or last.status = 'FAILURE' end)
      and (select c.status from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1) = 'running'
    order by m.id`);
  const faults: ServerStatusFault[] = [];
  for (const r of rows) {
    const status = siteServerStatus({
      machineId: r.id,
      needsAdmin: r.needsAdmin,
      instanceStatus: 'running',
      lastFinishedStatus: r.lastFinishedStatus,
      remote: r.remote,
      reported: r.reported,
    });
    const falseFlags = STATUS_FLAGS.filter((f) => !status[f]);
    if (falseFlags.length > 0) faults.push({ machineId: r.id, machineName: r.name, falseFlags, status });
  }
  return faults;
}

/** What each false flag means, as the issue's sentence says it. */
export const SERVER_STATUS_FAULTS: Record<ServerStatusFlag, string> = {
  operational: 'not operational',
  diskSpaceOk: 'disk space is low',
  interServerCommOk: 'the servers cannot reach each other',
  libraryImportOk: 'library import is failing',
  mongoOk: 'MongoDB is not responding',
  rabbitMqOk: 'RabbitMQ is not responding',
};

/**
 * The occurrence of a fault: one issue per machine and set of false flags,
 * described as an operator reads it ("Site server degraded: MongoDB is not
 * responding"), tagged `server-status` and the flags, the status flag by flag
 * (yes/no) as its log.
 */
export function serverStatusOccurrence(f: ServerStatusFault) {
  return {
    machineId: f.machineId,
    source: 'server-status' as const,
    description: `Site server ${f.status.status.toLowerCase()}: ${f.falseFlags.map((flag) => SERVER_STATUS_FAULTS[flag]).join(', ')}`,
    tags: ['server-status', ...f.falseFlags],
    content: [`Site server status of ${f.machineName}: ${f.status.status}`, ...STATUS_FLAGS.map((flag) => `${flag}: ${f.status[flag] ? 'yes' : 'no'}`)].join('\n'),
  };
}

/**
 * One run at `at`: claims the interval (answers undefined when another run
 * had it less than 90 % of `intervalMs` ago), then raises an issue for each
 * fault, all in one transaction. Answers the faults raised.
 */
export async function runServerStatusCheck(db: Db, { at, intervalMs }: { at: Date; intervalMs: number }): Promise<ServerStatusFault[] | undefined> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ name: string }>(sql`
      insert into engine_checks (name, last_run_at) values (${SERVER_STATUS_CHECK}, ${at.toISOString()}::timestamptz)
      on conflict (name) do update set last_run_at = excluded.last_run_at
      where engine_checks.last_run_at <= excluded.last_run_at - ${Math.floor(intervalMs * 0.9)} * interval '1 millisecond'
      returning name`);
    if (rows.length === 0) return undefined;
    const faults = await selectServerStatusFaults(tx);
    await raiseIssues(tx, faults.map(serverStatusOccurrence), at);
    return faults;
  });
}

export interface ServerStatusWatch {
  stop(): Promise<void>;
}

/**
 * Starts the periodic check: a run at once, then every `intervalMs`. `now`
 * is the clock (tests hand in theirs). A failed run is logged and the next one
 * tries again.
 */
export function startServerStatusWatch({
  db,
  intervalMs = SERVER_STATUS_INTERVAL_MS,
  now = () => new Date(),
  log,
}: {
  db: Db;
  intervalMs?: number;
  now?: () => Date;
  log?: Logger;
}): ServerStatusWatch {
  let stopped = false;
  let running: Promise<unknown> | undefined;
  const run = () => {
    if (running) return; // a run longer than the interval: the next tick after it
    running = runServerStatusCheck(db, { at: now(), intervalMs })
      .then((faults) => {
        if (faults && faults.length > 0) log?.info({ faults: faults.length }, 'site server status faults raised as issues');
      })
      .catch((err: unknown) => {
        if (stopped && isDatabaseGone(err)) return;
        log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'site server status check failed');
      })
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
