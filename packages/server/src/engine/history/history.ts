/**
 * History retention (issue 25 point 6; invariants in `README.md` beside this
 * file): finished rollouts (Completed or Aborted) with their targets, waves,
 * decisions and bakes, and the outputs of finished operations, are kept
 * `HISTORY_RETENTION_DAYS` (default 180) and then deleted, in batches of
 * {@link HISTORY_BATCH} rows per transaction. Audit activities are never
 * deleted (an operation's row stays too: only its output and deployer log are
 * replaced by one line saying so).
 *
 * {@link pruneHistory} is one pass; {@link startHistoryRetention} runs one at
 * the start and every {@link HISTORY_PASS_MS}, again at once while a batch was
 * full. Each batch is one transaction, and the operations' walk keeps its
 * cursor in the same transaction as the rows it pruned, so a killed worker
 * repeats nothing and loses nothing.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client.js';
import { startPassLoop, type PassLoop } from '../pass-loop.js';

/** Rows deleted or pruned per transaction. */
export const HISTORY_BATCH = 1_000;
/** How often the retention looks, ms: every ten minutes. */
export const HISTORY_PASS_MS = 10 * 60_000;
/** Default `HISTORY_RETENTION_DAYS`. */
export const DEFAULT_HISTORY_RETENTION_DAYS = 180;

const OUTPUTS_CURSOR = 'operation-outputs';

/** The line an operation's output holds once pruned. */
export function prunedOutputLine(days: number): string {
  return `Output deleted ${days} days after the operation finished (HISTORY_RETENTION_DAYS)`;
}

/** What one batch did: rollouts deleted, operation outputs pruned. */
export interface PruneReport {
  rollouts: number;
  outputs: number;
}

/** Deletes up to `batch` Completed or Aborted rollouts last changed before `cutoff`, oldest first (their rows cascade). */
async function deleteRollouts(tx: DbOrTx, cutoff: Date, batch: number): Promise<number> {
  const { rowCount } = await tx.execute(sql`
    delete from rollouts where id in (
      select id from rollouts where status in ('Completed', 'Aborted') and updated_at < ${cutoff.toISOString()}::timestamptz
      order by id limit ${batch})`);
  return rowCount ?? 0;
}

/**
 * Prunes the outputs of up to `batch` operations finished before `cutoff`, in
 * the order of `operations_finished_idx` after the cursor, and moves the cursor
 * to the last one, in the caller's transaction.
 */
async function pruneOutputs(tx: DbOrTx, cutoff: Date, batch: number, days: number): Promise<number> {
  const { rows } = await tx.execute<{ n: number }>(sql`
    with cursor as (
      select coalesce((select through from history_cursors where name = ${OUTPUTS_CURSOR}), '-infinity'::timestamptz) as through,
             coalesce((select last_id from history_cursors where name = ${OUTPUTS_CURSOR}), 0) as last_id
    ), page as (
      select o.id, o.finished_at from operations o, cursor c
      where o.finished_at is not null and (o.finished_at, o.id) > (c.through, c.last_id) and o.finished_at < ${cutoff.toISOString()}::timestamptz
      order by o.finished_at, o.id limit ${batch}
    ), pruned as (
      update operations o set output = ${prunedOutputLine(days)}, deployer_log = ''
      from page where o.id = page.id and (o.output <> ${prunedOutputLine(days)} or o.deployer_log <> '')
      returning o.id
    ), last as (
      select finished_at, id from page order by finished_at desc, id desc limit 1
    ), moved as (
      insert into history_cursors (name, through, last_id) select ${OUTPUTS_CURSOR}, finished_at, id from last
      on conflict (name) do update set through = excluded.through, last_id = excluded.last_id
      returning 1
    )
    select (select count(*) from page)::int as n, (select count(*) from pruned) as p, (select count(*) from moved) as m`);
  return rows[0]!.n;
}

/**
 * One pass: batches of each kind until a batch comes back short, at most
 * `maxBatches` of each (the next pass goes on). Answers the totals.
 */
export async function pruneHistory(db: Db, o: { days: number; now?: Date; batch?: number; maxBatches?: number }): Promise<PruneReport & { more: boolean }> {
  const batch = o.batch ?? HISTORY_BATCH;
  const cutoff = new Date((o.now ?? new Date()).getTime() - o.days * 86_400_000);
  const report = { rollouts: 0, outputs: 0, more: false };
  for (let i = 0; i < (o.maxBatches ?? 10); i++) {
    const rollouts = await db.transaction((tx) => deleteRollouts(tx, cutoff, batch));
    const outputs = await db.transaction((tx) => pruneOutputs(tx, cutoff, batch, o.days));
    report.rollouts += rollouts;
    report.outputs += outputs;
    report.more = rollouts === batch || outputs === batch;
    if (!report.more) break;
  }
  return report;
}

/** Starts the retention (worker role): a pass at once, then every `everyMs`, at once again while there is more. */
export function startHistoryRetention(o: { db: Db; days: number; everyMs?: number; log?: Logger }): PassLoop<PruneReport & { more: boolean }> {
  return startPassLoop({
    pass: () => pruneHistory(o.db, { days: o.days }),
    everyMs: o.everyMs ?? HISTORY_PASS_MS,
    channel: null,
    connection: o.db.$client.options,
    again: (r) => r.more,
    log: o.log,
    what: 'history retention',
  });
}
