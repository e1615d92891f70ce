/**
 * The demo fleet's schedules at each start (issue 11 "the demo fleet lives";
 * DESIGN §13): so that a fresh `npm start` shows, within a minute, a backup of
 * some account running at its time and an idle machine stopped by its schedule,
 * on every start and not only the first. Runs in `main.ts` with `SEED=demo`
 * (the worker roles), before the scheduler starts; `DEMO_SCHEDULES=false` turns
 * it off (the e2e server does, so that its fixtures stay as seeded).
 *
 * Two accounts are chosen afresh each start: live, of class Experimental or
 * Internal Testing, with a launcher, every machine managed, running and
 * healthy (not in Panic, not in operation mode ANOMALY, whose operations wait
 * for approval, its class not on standby), at most three machines, lowest ids first.
 * - The **backup account**'s backup time becomes the last half hour (UTC, the
 *   picker's step) and its due row that time: the time has just passed, so
 *   the scheduler's first pass runs it as a time missed while the server was
 *   down (once), a Backup of each of its machines (user Scheduler).
 * - The **idle account**'s idle schedule becomes one entry stopping
 *   {@link IDLE_DELAY_S} seconds from now for one hour: the scheduler stops its
 *   machines then (stop and idle true) and starts them an hour later.
 * Both are ordinary settings changes (version + 1) planned here in the same
 * transaction, so the console's Backup Settings and Idle Schedule cards show them.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { CLASS_EXPERIMENTAL, CLASS_INTERNAL_TESTING, OPERATION_MODE_ANOMALY } from '@fleet/contracts';
import type { Db } from '../db/client.js';
import { planAccount } from '../engine/schedules/planner.js';

/** Seconds from the start to the demo idle stop: after the first passes, within the first minute. */
export const IDLE_DELAY_S = 40;

export interface DemoSchedules {
  backup?: { accountId: number; name: string; time: string };
  idle?: { accountId: number; name: string; stopAt: string };
}

/** Sets the demo accounts' schedules (module docstring); answers which accounts, for the start-up banner. */
export async function prepareDemoSchedules(db: Db, opts: { now?: Date; log?: Logger } = {}): Promise<DemoSchedules> {
  const now = opts.now ?? new Date();
  const { rows } = await db.execute<{ id: number; name: string }>(sql`
    select a.id, a.name from accounts a
    where a.deleted_at is null and not a.is_template and a.class_id in (${CLASS_EXPERIMENTAL}, ${CLASS_INTERNAL_TESTING})
      and exists (select 1 from account_settings s where s.account_id = a.id)
      and exists (select 1 from machines m where m.account_id = a.id and m.deleted_at is null and m.is_launcher)
      and not exists (select 1 from machines m where m.account_id = a.id and m.deleted_at is null
        and (m.stop or m.idle or m.needs_admin or not m.managed or m.manual_maintenance or m.terminate
             or m.operation_mode = ${OPERATION_MODE_ANOMALY}
             or exists (select 1 from mma_instances i where i.class_id = m.class_id and i.standby)))
      and (select count(*) from machines m where m.account_id = a.id and m.deleted_at is null) <= 3
    order by a.id
    limit 2`);
  const [backupAccount, idleAccount] = rows;
  const out: DemoSchedules = {};
  const halfHour = new Date(Math.floor(now.getTime() / 1_800_000) * 1_800_000);
  const time = halfHour.toISOString().slice(11, 16);

  if (backupAccount) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`update account_settings
        set backup_config = backup_config || ${JSON.stringify({ times: [time] })}::jsonb, backup_version = backup_version + 1
        where account_id = ${backupAccount.id}`);
      await planAccount(tx, backupAccount.id, now, opts.log);
      await tx.execute(sql`update schedule_due set due_at = ${halfHour.toISOString()}::timestamptz, done_at = null
        where account_id = ${backupAccount.id} and kind = 'backup'`);
    });
    out.backup = { accountId: backupAccount.id, name: backupAccount.name, time };
  }
  if (idleAccount) {
    const stopAt = new Date(Math.ceil((now.getTime() + IDLE_DELAY_S * 1000) / 10_000) * 10_000).toISOString();
    await db.transaction(async (tx) => {
      await tx.execute(sql`update account_settings
        set idle_schedules = ${JSON.stringify([{ stopAt, resumeAfter: 1 }])}::jsonb, idle_version = idle_version + 1
        where account_id = ${idleAccount.id}`);
      await planAccount(tx, idleAccount.id, now, opts.log);
    });
    out.idle = { accountId: idleAccount.id, name: idleAccount.name, stopAt };
  }
  opts.log?.info(out, 'demo schedules set');
  return out;
}
