/**
 * `BENCH_PG_STATEMENTS=1`: where a benchmark's PostgreSQL time goes, per
 * statement (`pg_stat_statements`, shipped with the embedded PostgreSQL).
 *
 * The extension must be loaded when PostgreSQL starts
 * (`shared_preload_libraries`): {@link preloadStatementsLibrary} writes that
 * setting into the bench data folder's `postgresql.auto.conf` before the
 * server starts (and takes it out again on a run without the variable, so
 * that the other runs measure PostgreSQL as `npm start` runs it). A data
 * folder made by this very run has no configuration yet: the report then
 * starts with the next run. {@link resetStatements} before the measured
 * window and {@link printStatements} after it print the statements of that
 * window only. Executor times are wall time inside PostgreSQL: on this 2-core
 * machine they include waiting for a core.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

const PRELOAD = "shared_preload_libraries = 'pg_stat_statements'";

/** Whether this run reports statements (`BENCH_PG_STATEMENTS=1`). */
export const statementsWanted = () => process.env.BENCH_PG_STATEMENTS === '1';

/**
 * Puts the preload setting into `<dataDir>/pg/postgresql.auto.conf` when
 * {@link statementsWanted}, takes it out otherwise. Call before the server
 * starts.
 */
export function preloadStatementsLibrary(dataDir: string): void {
  const conf = join(dataDir, 'pg', 'postgresql.auto.conf');
  if (!existsSync(conf)) {
    if (statementsWanted()) console.log('  (BENCH_PG_STATEMENTS: the data folder is new; statements are reported from the next run)');
    return;
  }
  const lines = readFileSync(conf, 'utf8').split('\n').filter((line) => line !== PRELOAD && line !== '');
  if (statementsWanted()) lines.push(PRELOAD);
  writeFileSync(conf, `${lines.join('\n')}\n`);
}

/** Starts the measured window: the extension made (once per database) and its counters emptied. */
export async function resetStatements(db: pg.Client): Promise<void> {
  await db.query('create extension if not exists pg_stat_statements');
  await db.query('select pg_stat_statements_reset()');
}

/**
 * Prints the `limit` statements that took the most executor time since
 * {@link resetStatements}: calls, total and mean ms, the start of the text.
 */
export async function printStatements(db: pg.Client, limit = 15): Promise<void> {
  const { rows } = await db.query<{ calls: string; total: string; mean: string; query: string }>(
    `select calls, round(total_exec_time::numeric, 1) as total, round(mean_exec_time::numeric, 3) as mean,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query
     from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit $1`,
    [limit],
  );
  console.log(`  PostgreSQL's statements over the burst (pg_stat_statements, top ${limit} by executor time):`);
  console.log('| calls | total ms | mean ms | statement |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.calls} | ${r.total} | ${r.mean} | \`${r.query.replaceAll('|', '\\|')}\` |`);
}
