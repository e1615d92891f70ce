/**
 * bench/web-bundle: gzip size of the JavaScript each route of the console loads,
 * from Vite's build manifest (`packages/web/dist/.vite/manifest.json`). The entry
 * (index.html) and its static imports load first; a route adds its lazily loaded
 * page chunk(s) and their static imports. Budgets (issue 26): 200 KB gzip for the
 * login route, 300 KB for every other route; each route's line says whether it is
 * within its budget, and the last line counts the routes over theirs. Every page of
 * the router table is measured (`routePages`, packages/web/build/route-pages.ts).
 * Builds the console first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib/server.js';
import { consoleRoutes, LOGIN_ROUTE, routePages } from '../packages/web/build/route-pages.js';

/** Script budgets of issue 26, KB gzip: the login route, and every signed-in route. */
const LOGIN_BUDGET_KB = 200;
const ROUTE_BUDGET_KB = 300;

/** Every page of the router table (packages/web/build/route-pages.ts). */
export { consoleRoutes, routePages as consolePages };

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}

const dist = join(root, 'packages/web/dist');

export function benchWebBundle(): void {
  const build = spawnSync('npm', ['run', 'build', '-w', 'packages/web'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gzip = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gzip.has(file)) gzip.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
    return gzip.get(file)!;
  };
  /** Files of a chunk and of everything it imports statically. */
  const closure = (key: string, into = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const dep of chunk.imports ?? []) closure(dep, into);
    return into;
  };
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const entry = closure('index.html');
  const entryBytes = [...entry].reduce((s, f) => s + sizeOf(f), 0);

  console.log('bench/web-bundle (gzip -9, KB)');
  console.log('| route | page chunk(s) | route adds | total loaded | budget |');
  console.log('|---|---|---|---|---|');
  console.log(`| entry (index.html) | | | ${kb(entryBytes)} | |`);
  const over: string[] = [];
  for (const [route, pages] of consoleRoutes()) {
    const missing = pages.filter((p) => !manifest[p]);
    if (missing.length > 0) throw new Error(`the build has no chunk of ${missing.join(', ')} (route ${route})`);
    const files = new Set(entry);
    for (const page of pages) closure(page, files);
    const own = pages.map((p) => sizeOf(manifest[p]!.file)).reduce((a, b) => a + b, 0);
    const total = [...files].reduce((s, f) => s + sizeOf(f), 0);
    const budgetKb = route === LOGIN_ROUTE ? LOGIN_BUDGET_KB : ROUTE_BUDGET_KB;
    const within = total <= budgetKb * 1024;
    if (!within) over.push(route);
    console.log(`| ${route} | ${kb(own)} | ${kb(total - entryBytes)} | ${kb(total)} | ${budgetKb}: ${within ? 'within' : '**over**'} |`);
  }
  console.log(over.length === 0 ? 'every route within its budget' : `${over.length} route(s) over budget: ${over.join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) benchWebBundle();
