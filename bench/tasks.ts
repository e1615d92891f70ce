/**
 * bench/tasks: the task engine and the push channel on the scale fleet (issue 4),
 * simulated cloud delays set to zero.
 *
 * 1. Queues StartMachine for 1,000 running machines at once (50 concurrent API
 *    calls) and reports tasks per second from the first call to the last
 *    TaskFinished seen by a connected Socket.IO client. Each task is the API's
 *    start (the user, the machine locked, the task and its activity written),
 *    the engine's claim, the instance described and the finish, with three
 *    events: the engine's cost of a task, the same in every run. (Until
 *    2026-12-03 the machines were the 1,000 newest whatever their state: the
 *    first run after a seed also started the seed's stopped ones, a cloud
 *    start and two more writes each, and measured 203–239 tasks/s where the
 *    runs after it, on the same machines now running, measured 287–299.)
 * 2. Reports p50/p95 of the delay from a task's state change in the database
 *    (queuedAt, startedAt, completedAt) to its event at that client
 *    (budget: p95 under 250 ms).
 * 3. `GET /machines?accountId=…&limit=100` of an account with 100 machines at 1 and
 *    20 clients (budget: p95 under 50 ms). The account is added once to the scale
 *    fleet (the seed has none that large).
 *
 * One process by default, as `npm start` runs; `BENCH_TASKS_WORKER=1` runs the
 * engine in a worker process beside the API (`ROLE`, DESIGN §9).
 * `BENCH_PG_STATEMENTS=1` also prints PostgreSQL's statements of the burst
 * (`lib/pg-statements.ts`); `BENCH_CPU_PROF=<folder>` writes the server's CPU profile.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { connectTaskHub, hundredMachineAccount, root, startServer, token } from './lib/server.js';
import { percentile, printClientsTable } from './lib/load.js';
import { printStatements, resetStatements, statementsWanted } from './lib/pg-statements.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TASKS = 1000;

interface Task {
  id: number;
  queuedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  status: string;
}

export async function benchTasks(): Promise<void> {
  const split = process.env.BENCH_TASKS_WORKER === '1';
  const server = await startServer({ name: 'scale', seed: 'scale', env: { SIM_CLOUD_DELAY_MS: '0' }, worker: split });
  console.log(`bench/tasks: ${split ? 'the API and a worker process (BENCH_TASKS_WORKER=1)' : 'one process (ROLE all, as npm start runs)'}`);
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  const bearer = await token(server.baseUrl);
  const socket = await connectTaskHub(server.baseUrl, bearer);
  try {
    const headers = { authorization: `Bearer ${bearer}` };
    const delays: Record<string, number[]> = { TaskQueued: [], TaskStarted: [], TaskFinished: [] };
    const finished = new Set<number>();
    let lastFinished = 0;
    let firstStarted = 0;
    const stamp: Record<string, (t: Task) => string | null> = {
      TaskQueued: (t) => t.queuedAt,
      TaskStarted: (t) => t.startedAt,
      TaskFinished: (t) => t.completedAt,
    };
    for (const name of Object.keys(stamp)) {
      socket.on(name, (task: Task) => {
        const at = stamp[name]!(task);
        if (at) delays[name]!.push(Date.now() - Date.parse(at));
        if (name === 'TaskStarted' && firstStarted === 0) firstStarted = Date.now();
        if (name === 'TaskFinished') {
          finished.add(task.id);
          lastFinished = Date.now();
        }
      });
    }

    const { rows } = await db.query<{ id: number }>(
      `select m.id from machines m where m.deleted_at is null and m.class_id <> 200 and not m.stop
         and not exists (select 1 from machine_tasks t where t.machine_id = m.id and t.status in ('New', 'Running'))
       order by m.id desc limit ${TASKS}`,
    );
    const ids = rows.map((r) => r.id);
    if (statementsWanted()) await resetStatements(db);
    const queued: number[] = [];
    const started = Date.now();
    const clockUs = () => Number(process.hrtime.bigint() / 1000n);
    const burstFromUs = clockUs();
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          const res = await fetch(`${server.baseUrl}/api/v1/machines/${id}/start`, { method: 'POST', headers });
          if (res.ok) queued.push(((await res.json()) as Task).id);
        }
      }),
    );
    const queuedIn = (Date.now() - started) / 1000;
    const deadline = Date.now() + 180_000;
    while (queued.some((id) => !finished.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (process.env.BENCH_CPU_PROF) {
      console.log(`  the burst in the server's CPU profile: npm run bench:profile-summary -- ${process.env.BENCH_CPU_PROF} ${burstFromUs} ${clockUs()}`);
    }
    if (statementsWanted()) await printStatements(db);
    const done = queued.filter((id) => finished.has(id)).length;
    const seconds = (lastFinished - started) / 1000;
    const outcome = await db.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from machine_tasks where id = any($1) group by status order by status`,
      [queued],
    );

    console.log(`bench/tasks: ${queued.length} StartMachine tasks queued in ${queuedIn.toFixed(1)} s; ${done} finished in ${seconds.toFixed(1)} s`);
    const engineSeconds = (lastFinished - firstStarted) / 1000;
    console.log(`  throughput: ${Math.round(done / seconds)} tasks/s from the first call to the last TaskFinished; the engine alone (first TaskStarted to last TaskFinished, ${engineSeconds.toFixed(1)} s, while queueing went on): ${Math.round(done / engineSeconds)} tasks/s`);
    console.log(`  outcomes: ${outcome.rows.map((r) => `${r.status} ${r.n}`).join(', ')}`);
    console.log('| event | samples | p50 ms | p95 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const [name, values] of Object.entries(delays)) {
      values.sort((a, b) => a - b);
      console.log(`| ${name} (database → client) | ${values.length} | ${percentile(values, 50)} | ${percentile(values, 95)} | ${percentile(values, 99)} |`);
    }

    const accountId = await hundredMachineAccount(db);
    const url = `${server.baseUrl}/api/v1/machines?accountId=${accountId}&limit=100`;
    console.log(`GET /machines of an account with 100 machines; ${SECONDS} s per run`);
    await printClientsTable({ url, headers, seconds: SECONDS });
  } finally {
    socket.disconnect();
    await db.end();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTasks();
