/**
 * The benchmarks measure what exists (issue 23 point 5): every page the web
 * bundle benchmark names is a file of the console and a chunk of its router
 * table, and every API call the request benchmarks load answers 200 on the demo
 * fleet through the real app (a benchmark once measured a page that had been
 * deleted and crashed; a renamed route would be measured as a 404 storm).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../packages/server/test/harness.js';
import { seededAccountId } from '../packages/server/test/account-fixtures.js';
import { root } from './lib/server.js';
import { consolePages, consoleRoutes } from './web-bundle.js';
import { CATALOGUE_LISTS } from './catalogues.js';
import { VIEWER_FIRST_PAGES } from './fleet.js';
import { ACCOUNTS_LIST_SCENARIOS, DISTINCT_PAGES, OPERATOR_SCENARIOS } from './accounts-list.js';
import { ACCOUNT_SECTIONS, type Call, type Section } from './account-lifecycle.js';
import { ROUTES_WITH_IDS, screensOf } from './web-vitals.js';

describe('bench/web-bundle', () => {
  it('measures every lazily loaded page of the router table, each an existing file', () => {
    const pages = consolePages();
    const [routes, router] = ['routes.tsx', 'router.tsx'].map((f) => readFileSync(join(root, 'packages/web/src/app', f), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, ''));
    // The table's pages (not its prefetch modules), and the sign-in page and the shell of router.tsx.
    const imports = [...routes!.matchAll(/\b(?:page|indexPage): \(\) => import\('([^']+)'\)/g)].length + [...router!.matchAll(/import\('([^']+)'\)/g)].length;
    expect(pages).toHaveLength(imports);
    expect(pages.filter((p) => !existsSync(join(root, 'packages/web', p.page)))).toEqual([]);
    expect(pages.find((p) => p.route === '/login')?.page).toBe('src/app/LoginPage.tsx');
    expect(pages.find((p) => p.route === '/viewer/issues')?.page).toBe('src/features/issues/IssuesViewerPage.tsx');
    // Each signed-in route loads the shell, then its page.
    expect(consoleRoutes().find(([route]) => route === '/account/list')?.[1]).toEqual(['src/app/Shell.tsx', 'src/features/accounts/AccountsListPage.tsx']);
  });
});

describe('bench/web-vitals', () => {
  it('audits every page of the router table but the /viewer redirect, the login page first, each id filled in', () => {
    const screens = screensOf(Object.fromEntries(ROUTES_WITH_IDS.map((route) => [route, 7])));
    const routes = consoleRoutes().map(([route]) => route);
    expect(screens.map((s) => s.route)).toEqual(['/login', ...routes.filter((r) => r !== '/login' && r !== '/viewer')]);
    expect(screens.filter((s) => s.path.includes(':'))).toEqual([]);
    expect(screens.find((s) => s.route === '/rollouts/:id')?.path).toBe('/rollouts/7');
  });
});

describe('the request benchmarks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = async (url: string) => {
    const res = await t.call({ method: 'GET', url, as: 'admin' });
    return `${url}: ${res.statusCode}`;
  };

  it('load calls that answer 200 (catalogue lists, viewers\' first pages, accounts list scenarios)', async () => {
    const urls = [...CATALOGUE_LISTS.map(([, path]) => path), ...VIEWER_FIRST_PAGES.map(([, path]) => path), ...ACCOUNTS_LIST_SCENARIOS.map(([, query]) => `/accounts?${query}`), ...DISTINCT_PAGES.filter(([, , user]) => user === 'admin').map(([, query]) => `/accounts?${query}&startIndex=380`)];
    const answers = [];
    for (const url of urls) answers.push(await get(url));
    expect(answers).toEqual(urls.map((url) => `${url}: 200`));
    const operator = [...OPERATOR_SCENARIOS, ...DISTINCT_PAGES.filter(([, , user]) => user === 'operator')].map(([, query]) => `/accounts?${query}`);
    const operatorAnswers = [];
    for (const url of operator) operatorAnswers.push(`${url}: ${(await t.call({ method: 'GET', url, as: 'operator' })).statusCode}`);
    expect(operatorAnswers).toEqual(operator.map((url) => `${url}: 200`));
  });

  it('push each account section as bench/account-lifecycle builds it, accepted twice in a row', async () => {
    const accountId = await seededAccountId(t, { classId: 1 });
    const call: Call = async (method, path, body) => {
      const res = await t.call({ method: method as 'GET', url: `/${path}`, as: 'admin', body });
      return { status: res.statusCode, ms: 0, json: (res.body ? res.json() : undefined) as never };
    };
    for (const section of ACCOUNT_SECTIONS as Section<unknown>[]) {
      let state = await section.start(call, accountId);
      for (const i of [0, 1]) {
        const r = await call('PUT', section.path(accountId), section.next(state, i));
        expect(`${section.label} #${i}: ${r.status}`, JSON.stringify(r.json)).toBe(`${section.label} #${i}: 200`);
        state = r.json;
      }
    }
  });
});
