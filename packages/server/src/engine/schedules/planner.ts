/**
 * Planning (DESIGN §13; `README.md` beside this file): turns an account's
 * backup, idle and instance settings into its due rows (`schedule_due`). Runs
 * when a settings version differs from the one planned (`schedule_plans`), in
 * one transaction under the account's advisory lock, so two workers never plan
 * one account at once and the second sees the first's rows.
 *
 * - `backup`: one row when the account has backup times, due at the next time
 *   after now; a push that keeps the times and days keeps the row's time (so a
 *   time missed while the server was down is not lost by an unrelated push).
 * - `retention`: one row per live account, due at the next {@link RETENTION_TIME}.
 * - `idle-stop`: one row per entry (slot = stopAt ISO), due at stopAt; entries
 *   removed from the list lose their row; a pending resume stays.
 * - `auto-stop`: one row for the autoStopTime, due then.
 * - A one-shot time (idle stopAt, autoStopTime) already more than
 *   {@link PAST_GRACE_MS} in the past when the scheduler first sees it (a seed,
 *   an upgrade, a push of an old time) is recorded as not run: it was never
 *   planned ahead, so it was not "missed while down".
 * - Settings that do not parse are logged and plan nothing for that section.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DbOrTx } from '../../db/client.js';
import {
  deleteDue,
  insertDueIfNew,
  SCHEDULE_LOCK_NAMESPACE,
  selectDueRows,
  selectPlanFacts,
  updateDue,
  upsertDue,
  upsertPlan,
} from './schedules.repository.js';
import { nextOccurrence, nextRetention, readAutoStopTime, readBackupConfig, readIdleSchedules, resumeAtOf, RETENTION_TIME } from './times.js';

export { RETENTION_TIME };

/** How late a one-shot time may be when first seen and still run (a push of "now" reaches a pass a few seconds later). */
export const PAST_GRACE_MS = 15 * 60_000;

/** Why a one-shot row was recorded without running. */
export const TOO_LATE = 'Not run: the time had passed when the scheduler first saw it';

/**
 * Plans one account's due rows from its settings (module docstring). Answers
 * the problems found in its settings (empty when none). Call inside a
 * transaction.
 */
export async function planAccount(tx: DbOrTx, accountId: number, now: Date, log?: Logger): Promise<string[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SCHEDULE_LOCK_NAMESPACE}, ${accountId})`);
  const facts = await selectPlanFacts(tx, accountId);
  if (!facts) return [];
  const problems: string[] = [];
  const planned = facts.planned;
  if (!facts.live) {
    // Deleted, template or add-on: nothing of it runs any more.
    await deleteDue(tx, accountId, ['backup', 'retention', 'idle-stop', 'idle-resume', 'auto-stop']);
    await upsertPlan(tx, accountId, false, facts.versions, now);
    return problems;
  }
  const fresh = !planned || !planned.live;

  if (fresh || planned.backup !== facts.versions.backup) {
    const read = readBackupConfig(facts.backupConfig);
    if ('error' in read) {
      problems.push(read.error);
      await deleteDue(tx, accountId, ['backup', 'retention']);
    } else {
      const [existing] = await selectDueRows(tx, accountId, ['backup']);
      const next = nextOccurrence(read.plan.times, now);
      if (!next) await deleteDue(tx, accountId, ['backup']);
      else if (!existing || JSON.stringify(existing.params) !== JSON.stringify(read.plan)) {
        await upsertDue(tx, { accountId, kind: 'backup', dueAt: next, params: { ...read.plan } });
      }
      await insertDueIfNew(tx, { accountId, kind: 'retention', slot: '', dueAt: nextRetention(now) });
    }
  }

  if (fresh || planned.idle !== facts.versions.idle) {
    const { entries, invalid } = readIdleSchedules(facts.idleSchedules);
    if (invalid > 0) problems.push(`${invalid} invalid idle schedule ${invalid === 1 ? 'entry' : 'entries'} left out`);
    const rows = await selectDueRows(tx, accountId, ['idle-stop', 'idle-resume']);
    const stops = new Map(rows.filter((r) => r.kind === 'idle-stop').map((r) => [r.slot, r]));
    const resumes = new Map(rows.filter((r) => r.kind === 'idle-resume').map((r) => [r.slot, r]));
    for (const e of entries) {
      const row = stops.get(e.slot);
      const params = { resumeAfter: e.resumeAfterHours };
      if (!row) {
        const tooLate = e.stopAt.getTime() < now.getTime() - PAST_GRACE_MS;
        await insertDueIfNew(tx, { accountId, kind: 'idle-stop', slot: e.slot, dueAt: e.stopAt, params, doneAt: tooLate ? now : null, lastError: tooLate ? TOO_LATE : null });
      } else if (Number(row.params.resumeAfter) !== e.resumeAfterHours) {
        await updateDue(tx, row.id, { params });
        // Already stopped: the new resumeAfter moves the pending resume.
        const resume = resumes.get(e.slot);
        if (row.doneAt && resume) await updateDue(tx, resume.id, { dueAt: resumeAtOf(e.stopAt, e.resumeAfterHours) });
      }
    }
    await deleteDue(tx, accountId, ['idle-stop'], entries.map((e) => e.slot));
  }

  if (fresh || planned.instance !== facts.versions.instance) {
    const at = readAutoStopTime(facts.machineConfig);
    if (!at) await deleteDue(tx, accountId, ['auto-stop']);
    else {
      const slot = at.toISOString();
      await deleteDue(tx, accountId, ['auto-stop'], [slot]);
      const tooLate = at.getTime() < now.getTime() - PAST_GRACE_MS;
      await insertDueIfNew(tx, { accountId, kind: 'auto-stop', slot, dueAt: at, doneAt: tooLate ? now : null, lastError: tooLate ? TOO_LATE : null });
    }
  }

  await upsertPlan(tx, accountId, true, facts.versions, now);
  if (problems.length > 0) log?.warn({ accountId, problems }, 'schedules: settings with problems (the rest is planned)');
  return problems;
}
