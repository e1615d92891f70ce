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

/** The delta tables and the columns that name a count in each. */
const DELTA_KEYS = {
  account_count_deltas: ['class_id', 'status_flags'],
  saas_image_usage_deltas: ['image_name', 'class_id'],
} as const;

/**
 * Folds every count of `table` that has more than one delta row into a single
 * row (dropping counts that sum to zero), in one statement. Safe beside writers
 * and other compactions: rows a concurrent transaction has not committed are
 * not seen, and rows another compaction deleted first are skipped. Returns the
 * rows folded.
 */
async function foldDeltas(db: DbOrTx, table: keyof typeof DELTA_KEYS): Promise<number> {
  const keys = DELTA_KEYS[table];
  // Constant identifiers of this module, never input.
  const columns = sql.raw(keys.join(', '));
  const deleted = sql.raw(keys.map((k) => `d.${k}`).join(', '));
  const sameCount = sql.raw(keys.map((k) => `d.${k} = split.${k}`).join(' and '));
  const { rows } = await db.execute<{ folded: number }>(sql`
    with split as (
      select ${columns} from ${sql.identifier(table)}
      group by ${columns} having count(*) > 1
    ),
    folded as (
      delete from ${sql.identifier(table)} d using split
      where ${sameCount}
      returning ${deleted}, d.n
    ),
    inserted as (
      insert into ${sql.identifier(table)} (${columns}, n)
      select ${columns}, sum(n)::int from folded
      group by ${columns} having sum(n) <> 0
    )
    select count(*)::int as folded from folded`);
  return rows[0]?.folded ?? 0;
}

/** Folds each (class, status flags) bucket of `account_count_deltas` into one row ({@link foldDeltas}). */
export const compactAccountCounts = (db: DbOrTx) => foldDeltas(db, 'account_count_deltas');

/** Folds each (image name, class) of `saas_image_usage_deltas` into one row ({@link foldDeltas}). */
export const compactSaasImageUsage = (db: DbOrTx) => foldDeltas(db, 'saas_image_usage_deltas');

/**
 * Both compactions at once and then every `everyMs` (default 10 s) until the returned stop
 * function is called. Failures are logged and retried on the next tick. Stopping
 * waits for a compaction in flight, so the pool can be closed right after.
 */
export function startAccountCountCompaction(db: Db, opts: { everyMs?: number; log?: Logger } = {}): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  const run = () => {
    if (inFlight) return;
    inFlight = Promise.all([compactAccountCounts(db), compactSaasImageUsage(db)])
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
