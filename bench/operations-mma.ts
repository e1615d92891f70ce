/**
 * bench/operations-mma: remote MMAs claiming from a large queue (issue 27 "What
 * it must show"), on the scale fleet, simulated cloud delays zero.
 *
 * The class with the most startable machines is switched to remote. For 1, 4
 * and 16 reference MMA processes (`packages/mma`, concurrency 64 each, a
 * `script` executor running `true` for SmokeTest), one SmokeTest is queued on
 * up to `BENCH_OPERATIONS` (10,000) startable machines of that class at once,
 * and the run reports operations per second from the insert to the last
 * finish, and p50/p95 of the time from queue to start (`started_at -
 * queued_at`), beside the in-process agent's figure of `bench/operations`
 * (1,625 operations/s on 2026-11-24). Each run's MMAs are stopped (SIGTERM)
 * before the next; the class is put back to simulated at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { root, startServer, token } from './lib/server.js';

const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 10_000);
const MMA_COUNTS = (process.env.BENCH_MMAS ?? '1,4,16').split(',').map(Number);
/** Longest wait for one run's operations, ms. */
const RUN_TIMEOUT_MS = 900_000;

const STARTABLE = `m.deleted_at is null and a.deleted_at is null and m.managed and not m.manual_maintenance
  and not m.needs_admin and not m.terminate and m.operation_mode <> 2
  and exists (select 1 from cloud_instances c where c.machine_id = m.id and c.active and c.status = 'running')
  and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)`;

const MMA_CONFIG = `concurrency: 64
heartbeatSeconds: 5
shutdownGraceSeconds: 5
executors:
  SmokeTest:
    kind: script
    command: ["true"]
`;

async function api<T>(baseUrl: string, bearer: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const pct = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

export async function benchOperationsMma(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale', env: { SIM_CLOUD_DELAY_MS: '0', SIM_AGENT_DELAY_MS: '0' } });
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  const bearer = await token(server.baseUrl);
  // What an interrupted run left (bench data only): its queued SmokeTests ended, its MMAs revoked, every class simulated.
  await db.query(`update operations set status = 'FAILURE', finished_at = now() where user_name = 'bench' and finished_at is null`);
  await db.query(`update mma_agents set revoked_at = now(), revoked_by = 'bench' where revoked_at is null`);
  await db.query(`update mma_instances set mode = 'simulated' where mode = 'remote'`);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-mma-'));
  writeFileSync(join(dir, 'mma.yaml'), MMA_CONFIG);
  const { rows: classes } = await db.query<{ classId: number; n: number }>(
    `select m.class_id as "classId", count(*)::int as n from machines m join accounts a on a.id = m.account_id
     where ${STARTABLE} group by m.class_id order by n desc limit 1`,
  );
  const classId = classes[0]!.classId;
  await db.query(`update mma_instances set mode = 'remote', standby = false where class_id = $1`, [classId]);
  const results: string[] = [];
  try {
    for (const count of MMA_COUNTS) {
      const mmas: ChildProcess[] = [];
      for (let i = 0; i < count; i++) {
        const { token: registration } = await api<{ token: string }>(server.baseUrl, bearer, 'POST', `/mma/classes/${classId}/registration-tokens`);
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(root, 'packages/mma/src/cli.ts'), '--server', server.baseUrl, '--token', registration, '--config', join(dir, 'mma.yaml'), '--state', join(dir, `mma-${count}-${i}.json`)],
          { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] },
        );
        mmas.push(child);
      }
      // Wait until all of them are connected (seen by the server).
      for (;;) {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from mma_agents where class_id = $1 and revoked_at is null and last_seen_at > now() - interval '10 seconds'`,
          [classId],
        );
        if (rows[0]!.n >= count) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const { rows: machines } = await db.query<{ id: number }>(
        `select m.id from machines m join accounts a on a.id = m.account_id where m.class_id = $1 and ${STARTABLE} order by m.id limit $2`,
        [classId, OPERATIONS],
      );
      const started = Date.now();
      const inserted = await db.query<{ id: number }>(
        `insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode, fail_counter)
         select m.id, m.account_id, m.class_id, ot.id, 'SmokeTest', 'bench', ot.timeout_seconds, m.operation_mode, m.fail_counter
         from machines m join operation_types ot on ot.machine_class_id = m.class_id and ot.name = 'SmokeTest'
         where m.id = any($1) returning id`,
        [machines.map((m) => m.id)],
      );
      const ids = inserted.rows.map((r) => r.id);
      const deadline = Date.now() + RUN_TIMEOUT_MS;
      for (;;) {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from operations where id = any($1) and finished_at is null`, [ids]);
        if (rows[0]!.n === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const { rows: times } = await db.query<{ waitMs: number | null; status: string | null; endMs: number | null }>(
        `select extract(epoch from started_at - queued_at) * 1000 as "waitMs", status,
           extract(epoch from finished_at) * 1000 as "endMs" from operations where id = any($1)`,
        [ids],
      );
      const waits = times.flatMap((t) => (t.waitMs === null ? [] : [Number(t.waitMs)])).sort((a, b) => a - b);
      const last = Math.max(...times.map((t) => Number(t.endMs ?? 0)));
      const done = times.filter((t) => t.status !== null).length;
      const seconds = (last - started) / 1000;
      const outcomes = Object.entries(times.reduce<Record<string, number>>((acc, t) => ({ ...acc, [t.status ?? 'unfinished']: (acc[t.status ?? 'unfinished'] ?? 0) + 1 }), {}))
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      results.push(
        `| ${count} | ${ids.length} | ${seconds.toFixed(1)} | ${Math.round(done / seconds)} | ${Math.round(pct(waits, 50))} | ${Math.round(pct(waits, 95))} | ${outcomes} |`,
      );
      console.log(results.at(-1));
      await Promise.all(
        mmas.map(
          (m) =>
            new Promise<void>((resolve) => {
              m.once('exit', () => resolve());
              m.kill('SIGTERM');
            }),
        ),
      );
      await db.query(`update mma_agents set revoked_at = now(), revoked_by = 'bench' where class_id = $1 and revoked_at is null`, [classId]);
    }
    console.log(`bench/operations-mma: class ${classId}, SmokeTest with a script executor running \`true\`; in-process agent for comparison: 1,625 operations/s (bench/operations, 2026-11-24)`);
    console.log('| MMAs | operations | seconds | operations/s | queue → start p50 ms | p95 ms | outcomes |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of results) console.log(r);
  } finally {
    await db.query(`update mma_instances set mode = 'simulated' where class_id = $1`, [classId]).catch(() => undefined);
    await db.end();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchOperationsMma();
