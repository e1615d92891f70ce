/**
 * Demo issues (DESIGN §14, spec 2 §2.5): what the engine would have raised on
 * the demo fleet before it was started, written through `raiseIssue` so that
 * they group exactly as live occurrences will.
 *
 * - a `task` issue for each historical Failed task (the failed starts of
 *   panicked machines), at its completion time;
 * - `operation` issues on a few visible machines (one to four occurrences each
 *   over the last days), one of them on a Customer Production machine (only
 *   users with CustomerProductionAccess see it), and one `probe` issue (a
 *   timeout, which the live probes of a healthy machine do not repeat);
 * - one resolved `server-status` issue on a running managed panicked machine of
 *   a visible class: its fault lasts, so the worker's first status check after
 *   `npm start` (at once, then every `SERVER_STATUS_INTERVAL_S`) reopens it
 *   and counts it again.
 *
 * Deterministic: machines are picked by the seeded generator, times from
 * {@link BASE_DATE}.
 */
import { sql } from 'drizzle-orm';
import { CLASS_CUSTOMER_PRODUCTION } from '@fleet/contracts';
import type { DbOrTx } from '../db/client.js';
import { issues } from '../db/schema.js';
import { raiseIssue } from '../engine/issues/raise.js';
import { selectServerStatusFaults, serverStatusOccurrence } from '../engine/issues/server-status-check.js';
import { daysBefore, hoursAfter, type Rng } from './random.js';
import type { MachineRow, MachineTaskRow } from './machines.js';

const OPERATION_FAILURES = [
  { type: 'Backup', message: 'Upload of the launcher backup timed out after 1800 s' },
  { type: 'UpdateSoftware', message: 'Deployer exited with code 3: siteMaster 8.1.4 did not start' },
  { type: 'SmokeTest', message: 'Launcher sign-in answered 502 Bad Gateway' },
  { type: 'Populate', message: 'Populate of the site master failed: 12 records rejected' },
];

/** Seeds the demo issues into the fleet just inserted (same transaction). */
export async function seedDemoIssues(tx: DbOrTx, rng: Rng, fleet: { machines: MachineRow[]; machineTasks: MachineTaskRow[] }): Promise<void> {
  for (const task of fleet.machineTasks.filter((t) => t.status === 'Failed')) {
    await raiseIssue(
      tx,
      {
        machineId: task.machineId,
        source: 'task',
        description: `${task.type} failed: ${task.error ?? 'unknown error'}`,
        tags: ['task', task.type],
        content: `Task (${task.description}) failed after 1 attempt(s): ${task.error ?? 'unknown error'}`,
      },
      task.completedAt ?? daysBefore(1),
    );
  }

  const { rows: classes } = await tx.execute<{ id: number; hidden: boolean }>(sql`
    select m.id, (m.class_id = ${CLASS_CUSTOMER_PRODUCTION} or a.class_id = ${CLASS_CUSTOMER_PRODUCTION}) as hidden
    from machines m join accounts a on a.id = m.account_id where m.deleted_at is null order by m.id`);
  const hidden = new Set(classes.filter((c) => c.hidden).map((c) => c.id));
  const live = fleet.machines.filter((m) => !m.terminate);
  const visible = live.filter((m) => !hidden.has(m.id));
  const production = live.filter((m) => hidden.has(m.id));

  const failing = [...rng.sample(visible, OPERATION_FAILURES.length - 1), ...rng.sample(production, 1)];
  for (const [i, machine] of failing.entries()) {
    const failure = OPERATION_FAILURES[i]!;
    const first = daysBefore(rng.int(2, 10) + rng.next());
    const occurrences = rng.int(1, 4);
    for (let n = 0; n < occurrences; n += 1) {
      await raiseIssue(
        tx,
        {
          machineId: machine.id,
          source: 'operation',
          description: `${failure.type} failed: ${failure.message}`,
          tags: ['operation', failure.type],
          content: `Operation (${failure.type}) failed: ${failure.message}\n\n${first.toISOString()} Started on demo-worker\n${first.toISOString()} ${failure.message}\n`,
        },
        hoursAfter(n * rng.int(3, 30), first),
      );
    }
  }

  const probed = rng.pick(visible);
  await raiseIssue(
    tx,
    {
      machineId: probed.id,
      source: 'probe',
      description: `Launcher probe of ${probed.name} failed: no answer within 10000 ms`,
      tags: ['probe', 'launcher'],
      content: `GET the launcher of ${probed.name} failed: no answer within 10000 ms`,
    },
    daysBefore(1 + rng.next()),
  );

  // The resolved issue that recurs: a lasting site server status fault of a visible machine.
  const fault = (await selectServerStatusFaults(tx)).find((f) => !hidden.has(f.machineId));
  if (fault) {
    for (const days of [6, 4, 3]) await raiseIssue(tx, serverStatusOccurrence(fault), daysBefore(days));
    await tx
      .update(issues)
      .set({ isResolved: true, resolvedAt: daysBefore(2) })
      .where(sql`${issues.machineId} = ${fault.machineId} and ${issues.source} = 'server-status'`);
  }
}
