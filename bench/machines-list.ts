/**
 * bench/machines-list: `GET /machines?accountId=…&limit=100` of an account with
 * 100 machines (a running instance each) on the scale fleet, at 1 and 20
 * concurrent clients: p50/p95/p99 latency and requests per second. Budget
 * (issue 9): p95 under 50 ms at 20 clients. The same account as bench/tasks
 * (added once to the scale fleet), without running the task engine first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { hundredMachineAccount, root, startServer, token } from './lib/server.js';
import { printClientsTable } from './lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function benchMachinesList(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale' });
  const db = new pg.Client({ connectionString: readFileSync(join(root, '.bench-data/scale/postgres.url'), 'utf8') });
  await db.connect();
  try {
    const accountId = await hundredMachineAccount(db);
    const headers = { authorization: `Bearer ${await token(server.baseUrl)}` };
    const url = `${server.baseUrl}/api/v1/machines?accountId=${accountId}&limit=100`;
    const body = await (await fetch(url, { headers })).text();
    console.log(`bench/machines-list: GET /machines of an account with 100 machines (${Math.round(body.length / 1024)} KiB); ${SECONDS} s per run`);
    await printClientsTable({ url, headers, seconds: SECONDS });
  } finally {
    await db.end();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMachinesList();
