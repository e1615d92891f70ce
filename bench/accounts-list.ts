/**
 * bench/accounts-list: `GET /accounts` on the scale fleet (10,000 accounts,
 * 100,000 machines) at 1 and 20 concurrent clients: p50/p95/p99 latency, requests
 * per second, and the server's memory. Budget (issue 2): p95 under 50 ms at 20
 * clients for a page of 20. The searches (issue 9) run from a narrow term to one
 * letter, whose matches (half the fleet) are all ranked and counted. Clients that
 * ask the same question share one read (`lib/coalesce.ts`), so the scenarios run
 * again with each of 20 clients asking for a page of its own.
 */
import { startServer, token } from './lib/server.js';
import { runLoad, type LoadResult } from './lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Each scenario's query string of `GET /accounts`. */
export const ACCOUNTS_LIST_SCENARIOS: [string, string][] = [
  ['no filter', 'limit=20'],
  ['search term', 'limit=20&search=north'],
  ['search: one letter (4,853 matches)', 'limit=20&search=a'],
  ['search: two letters', 'limit=20&search=ac'],
  ['search: a customer name', 'limit=20&search=contoso%20telecom'],
  ['search: a creator (2,718 matches)', 'limit=20&search=admin'],
  ['search: no match', 'limit=20&search=zzz'],
  ['class and status filters', 'limit=20&classIds=1,2,3,4&machineStatusInclude=needsAdmin,turbo&machineStatusExclude=stopped'],
  ['deep page', 'limit=20&startIndex=9000'],
];

/**
 * The same list as a user without group CustomerProductionAccess (issue 24
 * point 9: Customer Production accounts listed as plain-text names and counted,
 * their configuration not read): the list as it opens, every class, a search.
 */
export const OPERATOR_SCENARIOS: [string, string][] = [
  ['operator: no filter', 'limit=20'],
  ['operator: every class', 'limit=20&classIds=1,2,3,4,5,6'],
  ['operator: search term, every class', 'limit=20&classIds=1,2,3,4,5,6&search=north'],
];

/** Scenarios run with 20 clients each asking for a different page (pages 1 to 20), so that no read is shared: name, query, user. */
export const DISTINCT_PAGES: [string, string, 'admin' | 'operator'][] = [
  ['no filter, a page per client', 'limit=20', 'admin'],
  ['search: one letter, a page per client', 'limit=20&search=a', 'admin'],
  ['class and status filters, a page per client', 'limit=20&classIds=1,2,3,4&machineStatusInclude=needsAdmin,turbo&machineStatusExclude=stopped', 'admin'],
  ['operator: every class, a page per client', 'limit=20&classIds=1,2,3,4,5,6', 'operator'],
  ['operator: one letter, every class, a page per client', 'limit=20&classIds=1,2,3,4,5,6&search=a', 'operator'],
];

/** One Markdown row of the results table. */
const row = (name: string, clients: number, r: LoadResult) => `| ${name} | ${clients} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`;

export async function benchAccountsList(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale' });
  try {
    const admin = { authorization: `Bearer ${await token(server.baseUrl)}` };
    const operator = { authorization: `Bearer ${await token(server.baseUrl, 'operator')}` };
    const total = (await (await fetch(`${server.baseUrl}/api/v1/accounts?limit=1`, { headers: admin })).json()) as { totalItems: number };
    console.log(`bench/accounts-list: ${total.totalItems} accounts visible to admin; ${SECONDS} s per run`);
    console.log('| scenario | clients | req/s | p50 ms | p95 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    const runs = [...ACCOUNTS_LIST_SCENARIOS.map((s) => [...s, admin] as const), ...OPERATOR_SCENARIOS.map((s) => [...s, operator] as const)];
    for (const [name, query, headers] of runs) {
      for (const clients of [1, 20]) {
        const url = `${server.baseUrl}/api/v1/accounts?${query}`;
        await runLoad({ url, headers, clients, seconds: 1 }); // warm-up
        const r = await runLoad({ url, headers, clients, seconds: SECONDS });
        console.log(row(name, clients, r));
      }
    }
    // The runs above send one question from every client, which the server answers with one shared read
    // (lib/coalesce.ts); here each of the 20 clients asks for a page of its own, so no read is shared.
    for (const [name, query, user] of DISTINCT_PAGES) {
      const headers = user === 'operator' ? operator : admin;
      const paths = Array.from({ length: 20 }, (_, k) => `/api/v1/accounts?${query}&startIndex=${k * 20}`);
      const url = `${server.baseUrl}/api/v1/accounts?${query}`;
      await runLoad({ url, headers, clients: 20, seconds: 1, paths }); // warm-up
      const r = await runLoad({ url, headers, clients: 20, seconds: SECONDS, paths });
      console.log(row(name, 20, r));
    }
    console.log(`server RSS after the runs: ${server.rssMiB()} MiB`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchAccountsList();
