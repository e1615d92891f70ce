/**
 * A closed-loop load generator: `clients` concurrent clients, each on its own
 * keep-alive connection, send the next request as soon as the previous answers,
 * for `seconds`. Reports latency percentiles (ms) and requests per second;
 * non-2xx answers count as errors. Uses node:http rather than fetch: the server,
 * PostgreSQL and this client share the machine's cores, and fetch costs more CPU.
 */
import { Agent, get } from 'node:http';
export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function request(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

export async function runLoad(opts: { url: string; headers: Record<string, string>; clients: number; seconds: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.clients });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + opts.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await request(opts.url, opts.headers, agent);
        latencies.push(performance.now() - t0);
        if (status < 200 || status >= 300) errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: latencies.length,
    errors,
    rps: Math.round(latencies.length / elapsed),
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
  };
}

/**
 * Loads `url` at 1 and then 20 concurrent clients (after a 1 s warm-up each) and
 * prints one Markdown row per run: requests/s, p50/p95/p99 ms, errors.
 */
export async function printClientsTable(opts: { url: string; headers: Record<string, string>; seconds: number }): Promise<void> {
  console.log('| clients | req/s | p50 ms | p95 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|---|');
  for (const clients of [1, 20]) {
    await runLoad({ url: opts.url, headers: opts.headers, clients, seconds: 1 });
    const r = await runLoad({ url: opts.url, headers: opts.headers, clients, seconds: opts.seconds });
    console.log(`| ${clients} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`);
  }
}
