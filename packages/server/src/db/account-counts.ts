/**
 * Live accounts counted per (class, machine status flags), for the accounts list's
 * total (spec 1 §7 Accounts: `totalItems`) without a scan of every account.
 *
 * Row triggers of migration `0009_account_counts_row_triggers` append +1/-1 rows to
 * `account_count_deltas` whenever an account's bucket changes; appending never
 * waits on another writer, unlike one shared counter row per bucket would. The
 * sum of a bucket's rows is its count at any snapshot. {@link compactAccountCounts}
 * folds each bucket's rows into one, so a count stays a sum over a few dozen rows.
 */
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.js';

/**
 * Folds every bucket that has more than one delta row into a single row (dropping
 * buckets that sum to zero), in one statement. Safe beside writers and other
 * compactions: rows a concurrent transaction has not committed are not seen, and
 * rows another compaction deleted first are skipped. Returns the rows folded.
 */
export async function compactAccountCounts(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ folded: number }>(sql`
    with split as (
      select class_id, status_flags from account_count_deltas
      group by class_id, status_flags having count(*) > 1
    ),
    folded as (
      delete from account_count_deltas d using split
      where d.class_id = split.class_id and d.status_flags = split.status_flags
      returning d.class_id, d.status_flags, d.n
    ),
    inserted as (
      insert into account_count_deltas (class_id, status_flags, n)
      select class_id, status_flags, sum(n)::int from folded
      group by class_id, status_flags having sum(n) <> 0
    )
    select count(*)::int as folded from folded`);
  return rows[0]?.folded ?? 0;
}

/**
 * Compacts at once and then every `everyMs` (default 10 s) until the returned stop
 * function is called. Failures are logged and retried on the next tick. Stopping
 * waits for a compaction in flight, so the pool can be closed right after.
 */
export function startAccountCountCompaction(db: Db, opts: { everyMs?: number; log?: Logger } = {}): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  const run = () => {
    if (inFlight) return;
    inFlight = compactAccountCounts(db)
      .then(() => undefined)
      .catch((err: Error) => opts.log?.warn({ err: err.message }, 'account count compaction failed'))
      .finally(() => (inFlight = undefined));
  };
  run();
  const timer = setInterval(run, opts.everyMs ?? 10_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
