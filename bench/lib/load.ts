/**
 * A closed-loop load: `clients` concurrent clients (autocannon connections, each
 * a keep-alive connection) send the next request as soon as the previous
 * answers, for `seconds`. Reports latency percentiles (ms) and requests per
 * second; non-2xx answers and failed requests count as errors.
 *
 * autocannon (the load generator Fastify's own benchmarks use) replaced a loop
 * of node:http requests in the sixth session: the server, PostgreSQL and the
 * load generator share the machine's cores, and autocannon spent 0.28 ms of CPU
 * per 80 KB answer where node:http spent 0.42 ms, CPU the server then lacked.
 * The percentiles are computed here from every response time (autocannon's
 * own summary has no p95).
 */
import autocannon from 'autocannon';

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

/**
 * Loads `url` with `clients` clients for `seconds`. With `paths` (each a path and
 * query on `url`'s server), client k asks for `paths[k % paths.length]` the whole
 * run instead: clients asking different questions, which the server cannot
 * answer with one shared read (`lib/coalesce.ts`).
 */
export async function runLoad(opts: { url: string; headers: Record<string, string>; clients: number; seconds: number; paths?: string[] }): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  let clientIndex = 0;
  const paths = opts.paths;
  const setupClient = paths ? (client: autocannon.Client) => client.setRequest({ method: 'GET', path: paths[clientIndex++ % paths.length]!, headers: opts.headers }) : undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: opts.url, headers: opts.headers, connections: opts.clients, duration: opts.seconds, setupClient }, (err, done) =>
      err ? reject(err) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (statusCode < 200 || statusCode >= 300) failed += 1;
    });
  });
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: latencies.length,
    errors: failed + result.errors,
    rps: Math.round(latencies.length / opts.seconds),
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
