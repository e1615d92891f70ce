/**
 * bench/web-bundle: gzip size of the JavaScript each route of the console loads,
 * from Vite's build manifest (`packages/web/dist/.vite/manifest.json`). The entry
 * (index.html) and its static imports load first; a route adds its lazily loaded
 * page chunk(s) and their static imports. Budget (issue 2): 300 KB gzip for the
 * login route. Every page of the router table is measured (`consolePages`).
 * Builds the console first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib/server.js';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}

const dist = join(root, 'packages/web/dist');

const web = join(root, 'packages/web');

/**
 * Every lazily loaded page of the console, read from its router table
 * (`src/app/routes.tsx`, and `router.tsx` for the sign-in page and the shell):
 * the route (`/viewer/issues`) and the page's module as a manifest key
 * (`src/features/issues/IssuesViewerPage.tsx`). Read from the source, so that a
 * page added to or removed from the table is measured without an edit here (a
 * hand-kept list once named a page that no longer existed and crashed the run).
 */
export function consolePages(): { route: string; page: string }[] {
  const pageKey = (from: string) => `src/app/${from}.tsx`.replace(/src\/app\/\.\.\//, 'src/').replace('src/app/./', 'src/app/');
  const pages: { route: string; page: string }[] = [];
  let group = '';
  for (const line of readFileSync(join(web, 'src/app/routes.tsx'), 'utf8').split('\n')) {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
    const path = /\bpath: '([^']+)'/.exec(line)?.[1];
    const loaded = /import\('([^']+)'\)/.exec(line)?.[1];
    if (/^ {2}\{ path: /.test(line)) group = '';
    if (/^ {4}path: '/.test(line)) group = `/${path}`;
    if (!loaded) continue;
    const route = path === undefined ? group : /^ {2}\{ path: /.test(line) ? `/${path}` : `${group}/${path}`;
    pages.push({ route, page: pageKey(loaded) });
  }
  const router = readFileSync(join(web, 'src/app/router.tsx'), 'utf8');
  for (const [, loaded] of router.matchAll(/import\('([^']+)'\)/g)) {
    pages.push({ route: loaded === './LoginPage' ? '/login' : '(every signed-in route)', page: pageKey(loaded!) });
  }
  return pages;
}

/** Routes and the page modules they load: the sign-in page alone, every other page after the shell. */
export function consoleRoutes(): [string, string[]][] {
  const pages = consolePages();
  const shell = pages.find((p) => p.page === 'src/app/Shell.tsx')?.page;
  if (!shell) throw new Error('router.tsx no longer loads src/app/Shell.tsx: update bench/web-bundle.ts');
  return pages.filter((p) => p.page !== shell).map((p) => [p.route, p.route === '/login' ? [p.page] : [shell, p.page]]);
}

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
  console.log('| route | page chunk(s) | route adds | total loaded |');
  console.log('|---|---|---|---|');
  console.log(`| entry (index.html) | | | ${kb(entryBytes)} |`);
  for (const [route, pages] of consoleRoutes()) {
    const missing = pages.filter((p) => !manifest[p]);
    if (missing.length > 0) throw new Error(`the build has no chunk of ${missing.join(', ')} (route ${route})`);
    const files = new Set(entry);
    for (const page of pages) closure(page, files);
    const own = pages.map((p) => sizeOf(manifest[p]!.file)).reduce((a, b) => a + b, 0);
    const total = [...files].reduce((s, f) => s + sizeOf(f), 0);
    console.log(`| ${route} | ${kb(own)} | ${kb(total - entryBytes)} | ${kb(total)} |`);
  }
  const login = new Set(entry);
  closure('src/app/LoginPage.tsx', login);
  const loginTotal = [...login].reduce((s, f) => s + sizeOf(f), 0);
  console.log(`login route: ${kb(loginTotal)} KB gzip (budget 300 KB): ${loginTotal <= 300 * 1024 ? 'within' : 'OVER'} budget`);
}

if (import.meta.url === `file://${process.argv[1]}`) benchWebBundle();
