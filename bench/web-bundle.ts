/**
 * bench/web-bundle: gzip size of the JavaScript each route of the console loads,
 * from the build's list of each route's scripts
 * (`packages/web/dist/.vite/route-scripts.json`, written by build/route-preload.ts):
 * the entry (index.html) and its static imports, then the files holding the
 * route's pages (the shell's and the page's) and their static imports. Budgets
 * (issue 26): 200 KB gzip for the login route, 300 KB for every other route;
 * each route's line says whether it is within its budget, and the last line
 * counts the routes over theirs. Every page of the router table is measured
 * (`routePages`, packages/web/build/route-pages.ts). Builds the console first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib/server.js';
import { consoleRoutes, LOGIN_ROUTE, ROUTE_SCRIPTS_FILE, routePages, type RouteScripts } from '../packages/web/build/route-pages.js';

/** Script budgets of issue 26, KB gzip: the login route, and every signed-in route. */
const LOGIN_BUDGET_KB = 200;
const ROUTE_BUDGET_KB = 300;

/** Every page of the router table (packages/web/build/route-pages.ts). */
export { consoleRoutes, routePages as consolePages };

const dist = join(root, 'packages/web/dist');

export function benchWebBundle(): void {
  const build = spawnSync('npm', ['run', 'build', '-w', 'packages/web'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  const scripts = JSON.parse(readFileSync(join(dist, ROUTE_SCRIPTS_FILE), 'utf8')) as RouteScripts;
  const gzip = new Map<string, number>();
  const sizeOf = (file: string) => {
    if (!gzip.has(file)) gzip.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
    return gzip.get(file)!;
  };
  const sum = (files: string[]) => files.reduce((s, f) => s + sizeOf(f), 0);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const entryBytes = sum(scripts.entry);

  console.log('bench/web-bundle (gzip -9, KB)');
  console.log('| route | files | page chunk(s) | route adds | total loaded | budget |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| entry (index.html) | ${scripts.entry.length} | | | ${kb(entryBytes)} | |`);
  const over: string[] = [];
  const measured = new Set(scripts.routes.map((r) => r.route));
  const missing = consoleRoutes().filter(([route]) => !measured.has(route));
  if (missing.length > 0) throw new Error(`${ROUTE_SCRIPTS_FILE} has no scripts of ${missing.map(([route]) => route).join(', ')}`);
  for (const { route, pages, scripts: files } of scripts.routes) {
    const total = sum(files);
    const budgetKb = route === LOGIN_ROUTE ? LOGIN_BUDGET_KB : ROUTE_BUDGET_KB;
    const within = total <= budgetKb * 1024;
    if (!within) over.push(route);
    console.log(`| ${route} | ${files.length} | ${kb(sum(pages))} | ${kb(total - entryBytes)} | ${kb(total)} | ${budgetKb}: ${within ? 'within' : '**over**'} |`);
  }
  console.log(over.length === 0 ? 'every route within its budget' : `${over.length} route(s) over budget: ${over.join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) benchWebBundle();
