/**
 * SQL of the scheduler (DESIGN §13; invariants in `README.md` beside this
 * file): the accounts to plan, the due rows (plan, claim, advance, finish), and
 * what an action reads about an account's machines and backup files.
 */
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings, backupFiles, scheduleDue, schedulePlans } from '../../db/schema.js';

export type DueRow = typeof scheduleDue.$inferSelect;
export type DueKind = 'backup' | 'retention' | 'idle-stop' | 'idle-resume' | 'auto-stop';

/** Namespace of the per-account advisory lock that serialises planning (`pg_advisory_xact_lock(ns, accountId)`). */
export const SCHEDULE_LOCK_NAMESPACE = 4_013;

/** Add-on accounts (class 200) have no instance, backup or idle sections (spec 1 §1). */
const ADD_ON_CLASS = 200;

/**
 * Accounts whose due rows must be planned again: never planned, a settings
 * version (backup, idle, instance) other than the one planned, or a liveness
 * that changed. At most `limit`, by id.
 */
export async function selectAccountsToPlan(db: DbOrTx, limit: number): Promise<number[]> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select a.id from ${accounts} a
    left join ${accountSettings} s on s.account_id = a.id
    left join ${schedulePlans} p on p.account_id = a.id
    where p.account_id is null
       or p.live <> (a.deleted_at is null and not a.is_template and a.class_id <> ${ADD_ON_CLASS})
       or p.backup_version <> coalesce(s.backup_version, 0)
       or p.idle_version <> coalesce(s.idle_version, 0)
       or p.instance_version <> coalesce(s.instance_version, 0)
    order by a.id
    limit ${limit}`);
  return rows.map((r) => r.id);
}

/** What planning reads of one account: liveness, settings and the versions planned before. */
export interface PlanFacts {
  live: boolean;
  backupConfig: unknown;
  idleSchedules: unknown;
  machineConfig: unknown;
  versions: { backup: number; idle: number; instance: number };
  planned: { live: boolean; backup: number; idle: number; instance: number } | null;
}

export async function selectPlanFacts(tx: DbOrTx, accountId: number): Promise<PlanFacts | undefined> {
  const { rows } = await tx.execute<{
    live: boolean;
    backup_config: unknown;
    idle_schedules: unknown;
    machine_config: unknown;
    backup_version: number;
    idle_version: number;
    instance_version: number;
    p_live: boolean | null;
    p_backup: number | null;
    p_idle: number | null;
    p_instance: number | null;
  }>(sql`
    select (a.deleted_at is null and not a.is_template and a.class_id <> ${ADD_ON_CLASS}) as live,
      s.backup_config, s.idle_schedules, s.machine_config,
      coalesce(s.backup_version, 0) as backup_version, coalesce(s.idle_version, 0) as idle_version,
      coalesce(s.instance_version, 0) as instance_version,
      p.live as p_live, p.backup_version as p_backup, p.idle_version as p_idle, p.instance_version as p_instance
    from ${accounts} a
    left join ${accountSettings} s on s.account_id = a.id
    left join ${schedulePlans} p on p.account_id = a.id
    where a.id = ${accountId}`);
  const r = rows[0];
  if (!r) return undefined;
  return {
    live: r.live,
    backupConfig: r.backup_config,
    idleSchedules: r.idle_schedules,
    machineConfig: r.machine_config,
    versions: { backup: r.backup_version, idle: r.idle_version, instance: r.instance_version },
    planned: r.p_live === null ? null : { live: r.p_live, backup: r.p_backup!, idle: r.p_idle!, instance: r.p_instance! },
  };
}

export async function upsertPlan(tx: DbOrTx, accountId: number, live: boolean, v: PlanFacts['versions'], at: Date): Promise<void> {
  const values = { live, backupVersion: v.backup, idleVersion: v.idle, instanceVersion: v.instance, plannedAt: at };
  await tx.insert(schedulePlans).values({ accountId, ...values }).onConflictDoUpdate({ target: schedulePlans.accountId, set: values });
}

export async function selectDueRows(tx: DbOrTx, accountId: number, kinds: DueKind[]): Promise<DueRow[]> {
  return tx.select().from(scheduleDue).where(and(eq(scheduleDue.accountId, accountId), inArray(scheduleDue.kind, kinds)));
}

/** Inserts a due row, or replaces its time and params. */
export async function upsertDue(tx: DbOrTx, row: { accountId: number; kind: DueKind; slot?: string; dueAt: Date; params?: Record<string, unknown> }): Promise<void> {
  const values = { accountId: row.accountId, kind: row.kind, slot: row.slot ?? '', dueAt: row.dueAt, params: row.params ?? {}, doneAt: null, lastError: null };
  await tx
    .insert(scheduleDue)
    .values(values)
    .onConflictDoUpdate({ target: [scheduleDue.accountId, scheduleDue.kind, scheduleDue.slot], set: { dueAt: values.dueAt, params: values.params, doneAt: null } });
}

/** Inserts a due row unless the account has one of that kind and slot (done or not); answers whether it did. */
export async function insertDueIfNew(
  tx: DbOrTx,
  row: { accountId: number; kind: DueKind; slot: string; dueAt: Date; params?: Record<string, unknown>; doneAt?: Date | null; lastError?: string | null },
): Promise<boolean> {
  const inserted = await tx
    .insert(scheduleDue)
    .values({ ...row, params: row.params ?? {}, doneAt: row.doneAt ?? null, lastError: row.lastError ?? null })
    .onConflictDoNothing()
    .returning({ id: scheduleDue.id });
  return inserted.length > 0;
}

export async function updateDue(tx: DbOrTx, id: number, values: Partial<Pick<DueRow, 'dueAt' | 'params' | 'doneAt' | 'lastRunAt' | 'lastError'>>): Promise<void> {
  await tx.update(scheduleDue).set(values).where(eq(scheduleDue.id, id));
}

/** Deletes the account's rows of `kinds`, all of them or those whose slot is not in `keepSlots`. */
export async function deleteDue(tx: DbOrTx, accountId: number, kinds: DueKind[], keepSlots?: string[]): Promise<void> {
  await tx
    .delete(scheduleDue)
    .where(
      and(
        eq(scheduleDue.accountId, accountId),
        inArray(scheduleDue.kind, kinds),
        keepSlots && keepSlots.length > 0 ? notInArray(scheduleDue.slot, keepSlots) : undefined,
      ),
    );
}

export async function deleteDueRow(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(scheduleDue).where(eq(scheduleDue.id, id));
}

/**
 * Claims the oldest row whose time has come (not done, `dueAt <= now`), locked
 * for the rest of the transaction; rows another worker holds are skipped (`SKIP
 * LOCKED`), and a row it just advanced no longer matches. Undefined when none.
 */
export async function claimDue(tx: DbOrTx, now: Date): Promise<DueRow | undefined> {
  const [row] = await tx
    .select()
    .from(scheduleDue)
    .where(and(isNull(scheduleDue.doneAt), sql`${scheduleDue.dueAt} <= ${now.toISOString()}::timestamptz`))
    .orderBy(scheduleDue.dueAt, scheduleDue.id)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** The account as the audit names it. */
export async function selectAuditAccount(tx: DbOrTx, accountId: number): Promise<{ id: number; name: string; classId: number } | undefined> {
  const [row] = await tx.select({ id: accounts.id, name: accounts.name, classId: accounts.classId }).from(accounts).where(eq(accounts.id, accountId));
  return row;
}

/** A live machine of the account as the scheduler's actions need it. */
export interface ScheduleMachine {
  id: number;
  name: string;
  accountId: number;
  classId: number;
  accountClassId: number;
  operationMode: number;
  failCounter: number;
  stop: boolean;
  idle: boolean;
}

/**
 * The account's live machines that `which` selects, locked for the transaction:
 * `backup` those that run a launcher or a site master, whose class has the
 * Backup operation type and that have no Backup of the Scheduler still waiting
 * to start; `running` those not stopped (stop false); `idle` those the idle
 * schedule stopped (idle true). Machines being terminated are never selected.
 */
export async function selectScheduleMachines(tx: DbOrTx, accountId: number, which: 'backup' | 'running' | 'idle'): Promise<ScheduleMachine[]> {
  const filter =
    which === 'backup'
      ? sql`(m.is_launcher or m.is_site_master)
          and exists (select 1 from operation_types ot where ot.machine_class_id = m.class_id and ot.name = 'Backup')
          and not exists (select 1 from operations o where o.machine_id = m.id and o.type_name = 'Backup'
                          and o.user_name = 'Scheduler' and o.status is null and o.finished_at is null)`
      : which === 'running'
        ? sql`not m.stop`
        : sql`m.idle`;
  const { rows } = await tx.execute<{
    id: number;
    name: string;
    account_id: number;
    class_id: number;
    account_class_id: number;
    operation_mode: number;
    fail_counter: number;
    stop: boolean;
    idle: boolean;
  }>(sql`
    select m.id, m.name, m.account_id, m.class_id, a.class_id as account_class_id, m.operation_mode, m.fail_counter, m.stop, m.idle
    from machines m join accounts a on a.id = m.account_id
    where m.account_id = ${accountId} and m.deleted_at is null and not m.terminate and ${filter}
      and not exists (select 1 from machine_tasks t where t.machine_id = m.id and t.type = 'TerminateMachine' and t.status in ('New', 'Running'))
    order by m.id
    for update of m`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    accountId: r.account_id,
    classId: r.class_id,
    accountClassId: r.account_class_id,
    operationMode: r.operation_mode,
    failCounter: r.fail_counter,
    stop: r.stop,
    idle: r.idle,
  }));
}

/** Machines still queued for a Backup of the Scheduler (the ones a backup run leaves out). */
export async function selectMachinesWithQueuedBackup(tx: DbOrTx, accountId: number): Promise<{ id: number; name: string }[]> {
  const { rows } = await tx.execute<{ id: number; name: string }>(sql`
    select m.id, m.name from machines m
    where m.account_id = ${accountId} and m.deleted_at is null
      and exists (select 1 from operations o where o.machine_id = m.id and o.type_name = 'Backup'
                  and o.user_name = 'Scheduler' and o.status is null and o.finished_at is null)
    order by m.id`);
  return rows;
}

export type BackupFileRow = typeof backupFiles.$inferSelect;

/**
 * Backup files of the account past their retention: of `category`, created
 * before `before`, and (for MoveToGlacier) still Standard. Oldest first, at most
 * `limit`, locked for the transaction.
 */
export async function selectAgedBackupFiles(
  tx: DbOrTx,
  q: { accountId: number; category: string; before: Date; onlyStandard: boolean; limit: number },
): Promise<BackupFileRow[]> {
  if (q.limit <= 0) return [];
  return tx
    .select()
    .from(backupFiles)
    .where(
      and(
        eq(backupFiles.accountId, q.accountId),
        eq(backupFiles.category, q.category),
        sql`${backupFiles.createdAt} < ${q.before.toISOString()}::timestamptz`,
        q.onlyStandard ? eq(backupFiles.storageClass, 'Standard') : undefined,
      ),
    )
    .orderBy(backupFiles.createdAt, backupFiles.id)
    .limit(q.limit)
    .for('update');
}

export async function deleteBackupFileRows(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length > 0) await tx.delete(backupFiles).where(inArray(backupFiles.id, ids));
}

export async function setBackupFilesStorageClass(tx: DbOrTx, ids: number[], storageClass: 'Standard' | 'Glacier'): Promise<void> {
  if (ids.length > 0) await tx.update(backupFiles).set({ storageClass }).where(inArray(backupFiles.id, ids));
}
