/**
 * The console's pages as its router table declares them, read from the source
 * at build time (`src/app/routes.tsx`, and `src/app/router.tsx` for the sign-in
 * page and the shell): each route (`/viewer/issues`, `/account/edit/:id`) and
 * the module of its lazily loaded page as a path from the package root
 * (`src/features/issues/IssuesViewerPage.tsx`). Read by the route preload
 * (build/route-preload.ts) and by bench/web-bundle and bench/web-vitals.
 *
 * Read from the source, so that a page added to or removed from the table needs
 * no edit here (a hand-kept list once named a page that no longer existed).
 * The table keeps one entry with its `page: () => import()` per line (routes.tsx says so);
 * `routePages()` throws when it finds no page, or a page module that is not a file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The web package's folder (packages/web). */
export const WEB_ROOT = new URL('..', import.meta.url).pathname;

/** The signed-in shell's module, loaded before every page but the sign-in page. */
export const SHELL_PAGE = 'src/app/Shell.tsx';
/** The route of the sign-in page. */
export const LOGIN_ROUTE = '/login';

/** `dist/.vite/route-scripts.json` (written by build/route-preload.ts, read by bench/web-bundle): the entry's scripts, and per route the files holding its pages and every script it loads, the entry's included. */
export interface RouteScripts {
  entry: string[];
  routes: { route: string; pages: string[]; scripts: string[] }[];
}

/** Where {@link RouteScripts} is written, from the build's output folder. */
export const ROUTE_SCRIPTS_FILE = '.vite/route-scripts.json';

/** A page of the router table: its route and its module. */
export interface RoutePage {
  route: string;
  page: string;
}

/** Every lazily loaded page of the router table, the shell included (its route `(every signed-in route)`). */
export function routePages(web = WEB_ROOT): RoutePage[] {
  const pageKey = (from: string) => `src/app/${from}.tsx`.replace(/src\/app\/\.\.\//, 'src/').replace('src/app/./', 'src/app/');
  const pages: RoutePage[] = [];
  let group = '';
  for (const line of readFileSync(join(web, 'src/app/routes.tsx'), 'utf8').split('\n')) {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
    const path = /\bpath: '([^']+)'/.exec(line)?.[1];
    const loaded = /\b(?:page|indexPage): \(\) => import\('([^']+)'\)/.exec(line)?.[1];
    if (/^ {2}\{ path: /.test(line)) group = '';
    if (/^ {4}path: '/.test(line)) group = `/${path}`;
    if (!loaded) continue;
    const route = path === undefined ? group : /^ {2}\{ path: /.test(line) ? `/${path}` : `${group}/${path}`;
    pages.push({ route, page: pageKey(loaded) });
  }
  const router = readFileSync(join(web, 'src/app/router.tsx'), 'utf8');
  for (const [, loaded] of router.matchAll(/import\('([^']+)'\)/g)) {
    pages.push({ route: loaded === './LoginPage' ? LOGIN_ROUTE : '(every signed-in route)', page: pageKey(loaded!) });
  }
  if (pages.length === 0) throw new Error('src/app/routes.tsx declares no page: has its layout changed?');
  const missing = pages.filter((p) => !existsSync(join(web, p.page)));
  if (missing.length > 0) throw new Error(`the router table loads modules that do not exist: ${missing.map((p) => p.page).join(', ')}`);
  return pages;
}

/** Routes and the page modules they load: the sign-in page alone, every other page after the shell. */
export function consoleRoutes(web = WEB_ROOT): [string, string[]][] {
  const pages = routePages(web);
  if (!pages.some((p) => p.page === SHELL_PAGE)) throw new Error(`router.tsx no longer loads ${SHELL_PAGE}: update build/route-pages.ts`);
  return pages.filter((p) => p.page !== SHELL_PAGE).map((p) => [p.route, p.route === LOGIN_ROUTE ? [p.page] : [SHELL_PAGE, p.page]]);
}

/** The default screen that `/` and unknown paths redirect to (`HOME_PATH` of routes.tsx). */
export function homePath(web = WEB_ROOT): string {
  const home = /export const HOME_PATH = '([^']+)'/.exec(readFileSync(join(web, 'src/app/routes.tsx'), 'utf8'))?.[1];
  if (!home) throw new Error('src/app/routes.tsx no longer exports HOME_PATH as a string');
  return home;
}
