/**
 * bench/catalogues: `GET` of each catalogue list (issue 12: spec 3 §2.2–§2.7)
 * on the scale fleet at 20 concurrent clients, as admin: requests per second
 * and p50/p95/p99 latency (ms). The lists are the ones the Lists, Library
 * Manager and MMA screens load when they open.
 */
import { startServer, token } from './lib/server.js';
import { runLoad } from './lib/load.js';

/** Each screen's list call, path under /api/v1. */
export const CATALOGUE_LISTS: [string, string][] = [
  ['IRMN Versions', '/irmn-versions'],
  ['SaaS Images', '/cloud/images'],
  ['Cloud Images', '/cloud/caa-images'],
  ['Component Configs', '/component-configs'],
  ['Deployer Configs', '/deployer-configs'],
  ['Instance Types', '/cloud/instance-types'],
  ['Redis Instance Types', '/cloud/redis-instance-types'],
  ['Library files', '/library/files'],
  ['Cloud library files', '/library/cloud-files'],
  ['MMA classes', '/mma/classes'],
  ['MMA instances', '/mma/instances'],
];

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function benchCatalogues(): Promise<void> {
  const server = await startServer({ name: 'scale', seed: 'scale' });
  try {
    const headers = { authorization: `Bearer ${await token(server.baseUrl)}` };
    console.log(`bench/catalogues: GET of each catalogue list at 20 clients, ${SECONDS} s each`);
    console.log('| list | bytes | req/s | p50 ms | p95 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, path] of CATALOGUE_LISTS) {
      const url = `${server.baseUrl}/api/v1${path}`;
      const res = await fetch(url, { headers });
      const bytes = (await res.arrayBuffer()).byteLength;
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      await runLoad({ url, headers, clients: 20, seconds: 1 });
      const r = await runLoad({ url, headers, clients: 20, seconds: SECONDS });
      console.log(`| ${name} (\`${path}\`) | ${bytes} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`);
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCatalogues();
