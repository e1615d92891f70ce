/**
 * bench/operations: the operation agent and the push channel on the scale fleet
 * (issue 10), simulated cloud and agent delays set to zero.
 *
 * 1. Once the fleet has settled (`startServer`: the deploy controller's first
 *    burst of UpdateSoftware ended, what it cannot start left queued), queues one SmokeTest on up to
 *    10,000 startable machines at once (one INSERT and its NOTIFYs, as the
 *    scheduler or the updater would) and reports operations per second from the
 *    insert to the last OperationFinished seen by a connected Socket.IO client
 *    (budget: 500/s).
 * 2. Reports p50/p95 of the delay from an operation's change in the database
 *    (startTime, finishTime) to its event at that client.
 * 3. `GET /operations?limit=10` (the Operations viewer's first page) at 1 and 20
 *    clients (budget: p95 under 50 ms at 20).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { connectTaskHub, root, startServer, token } from './lib/server.js';
import { percentile, printClientsTable } from './lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 10_000);

interface Operation {
  id: number;
  startTime: string | null;
  finishTime: string | null;
  status: string | null;
}

export async function benchOperations(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale', env: { SIM_CLOUD_DELAY_MS: '0', SIM_AGENT_DELAY_MS: '0' } });
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  const bearer = await token(server.baseUrl);
  const socket = await connectTaskHub(server.baseUrl, bearer);
  try {
    const delays: Record<string, number[]> = { OperationStarted: [], OperationFinished: [] };
    const finished = new Set<number>();
    let lastFinished = 0;
    socket.on('OperationStarted', (o: Operation) => {
      if (o.startTime) delays.OperationStarted!.push(Date.now() - Date.parse(o.startTime));
    });
    socket.on('OperationFinished', (o: Operation) => {
      if (o.finishTime) delays.OperationFinished!.push(Date.now() - Date.parse(o.finishTime));
      finished.add(o.id);
      lastFinished = Date.now();
    });

    const { rows: machines } = await db.query<{ id: number }>(
      `select m.id from machines m
         join accounts a on a.id = m.account_id
         join mma_instances mi on mi.class_id = m.class_id
       where m.deleted_at is null and a.deleted_at is null and m.managed and not m.manual_maintenance
         and not m.needs_admin and not m.terminate and not mi.standby and m.operation_mode <> 2
         and exists (select 1 from cloud_instances c where c.machine_id = m.id and c.active and c.status = 'running')
         and not exists (select 1 from operations o where o.machine_id = m.id and o.finished_at is null)
       order by m.id limit $1`,
      [OPERATIONS],
    );
    const ids = machines.map((m) => m.id);
    const started = Date.now();
    await db.query('begin');
    const inserted = await db.query<{ id: number }>(
      `insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode, fail_counter)
       select m.id, m.account_id, m.class_id, ot.id, 'SmokeTest', 'bench', ot.timeout_seconds, m.operation_mode, m.fail_counter
       from machines m join operation_types ot on ot.machine_class_id = m.class_id and ot.name = 'SmokeTest'
       where m.id = any($1) returning id`,
      [ids],
    );
    for (let i = 0; i < ids.length; i += 500) {
      await db.query(`select pg_notify('fleet_operation_queued', $1)`, [ids.slice(i, i + 500).join(',')]);
    }
    await db.query('commit');
    const queued = inserted.rows.map((r) => r.id);

    const deadline = Date.now() + 600_000;
    while (queued.some((id) => !finished.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const done = queued.filter((id) => finished.has(id)).length;
    const seconds = (lastFinished - started) / 1000;
    const outcome = await db.query<{ status: string | null; n: number }>(
      `select status, count(*)::int as n from operations where id = any($1) group by status order by status`,
      [queued],
    );
    console.log(`bench/operations: ${queued.length} SmokeTest operations queued at once; ${done} finished in ${seconds.toFixed(1)} s`);
    console.log(`  throughput: ${Math.round(done / seconds)} operations/s from the insert to the last OperationFinished at a client (budget 500/s)`);
    console.log(`  outcomes: ${outcome.rows.map((r) => `${r.status ?? 'unfinished'} ${r.n}`).join(', ')}`);
    console.log('| event | samples | p50 ms | p95 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const [name, values] of Object.entries(delays)) {
      values.sort((a, b) => a - b);
      console.log(`| ${name} (database → client) | ${values.length} | ${percentile(values, 50)} | ${percentile(values, 95)} | ${percentile(values, 99)} |`);
    }

    const total = await db.query<{ n: number }>('select count(*)::int as n from operations');
    console.log(`GET /operations?limit=10 (the viewer's first page) with ${total.rows[0]!.n} operations; ${SECONDS} s per run`);
    await printClientsTable({ url: `${server.baseUrl}/api/v1/operations?limit=10`, headers: { authorization: `Bearer ${bearer}` }, seconds: SECONDS });
  } finally {
    socket.disconnect();
    await db.end();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchOperations();
