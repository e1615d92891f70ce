import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { OutputBundle } from 'rolldown';
import { preloadScript, preloadTable, routeScripts, TOKEN_KEY, type PreloadTable } from '../build/route-preload.ts';
import { consoleRoutes, homePath, WEB_ROOT } from '../build/route-pages.ts';
import { TOKEN_STORAGE_KEY } from '../src/app/auth/token-store.ts';

const TABLE: PreloadTable = {
  files: ['assets/Shell.js', 'assets/List.js', 'assets/Edit.js', 'assets/Login.js', 'assets/edit.css'],
  routes: { '/account/list': [0, 1], '/account/edit/:id': [0, 2, 4], '/login': [3] },
  home: '/account/list',
  login: '/login',
  tokenKey: 'fleet.token',
};

/** Runs the preload script as a page at `hash` would, with or without a token; answers the links it added. */
function preloads(hash: string, token: string | null, table = TABLE): { rel: string; as?: string; href: string; crossOrigin: string }[] {
  const head: { rel: string; as?: string; href: string; crossOrigin: string }[] = [];
  runInNewContext(preloadScript(table), {
    window: { location: { hash }, localStorage: { getItem: (key: string) => (key === table.tokenKey ? token : null) } },
    document: { createElement: () => ({}), head: { appendChild: (link: (typeof head)[number]) => head.push(link) } },
  });
  return head;
}

describe('the route preload script', () => {
  it('preloads the scripts and style sheets of the route the hash names, its parameter and query ignored', () => {
    expect(preloads('#/account/edit/51?tab=machines', 'jwt')).toEqual([
      { rel: 'modulepreload', href: '/assets/Shell.js', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/Edit.js', crossOrigin: '' },
      { rel: 'preload', as: 'style', href: '/assets/edit.css', crossOrigin: '' },
    ]);
  });

  it('preloads the sign-in page when there is no token, whatever the route', () => {
    expect(preloads('#/account/edit/51', null).map((l) => l.href)).toEqual(['/assets/Login.js']);
  });

  it('preloads the default screen for /, an unknown path and the sign-in page of a signed-in user', () => {
    for (const hash of ['', '#/', '#/no/such/page', '#/login', '#/account/edit']) {
      expect(preloads(hash, 'jwt').map((l) => l.href), hash).toEqual(['/assets/Shell.js', '/assets/List.js']);
    }
  });

  it('adds nothing when storage is refused and the sign-in page has no files', () => {
    const table = { ...TABLE, routes: { ...TABLE.routes, '/login': [] } };
    const head: unknown[] = [];
    runInNewContext(preloadScript(table), {
      window: {
        location: { hash: '#/account/list' },
        get localStorage(): never {
          throw new Error('SecurityError');
        },
      },
      document: { createElement: () => ({}), head: { appendChild: (link: unknown) => head.push(link) } },
    });
    expect(head).toEqual([]);
  });

  it('reads the token under the key the console stores it', () => {
    expect(TOKEN_KEY).toBe(TOKEN_STORAGE_KEY);
  });
});

describe('the preload table of a bundle', () => {
  /** A bundle with the entry, the shell, a page per route and one shared chunk. */
  function bundle(): OutputBundle {
    const chunk = (fileName: string, o: { page?: string; imports?: string[]; css?: string[]; entry?: boolean }) => ({
      type: 'chunk',
      fileName,
      isEntry: o.entry ?? false,
      facadeModuleId: o.page ? `${WEB_ROOT}${o.page}` : null,
      moduleIds: o.page ? [`${WEB_ROOT}${o.page}`, `${WEB_ROOT}src/lib/${fileName.replace(/\W/g, '_')}.ts`] : [],
      imports: o.imports ?? [],
      viteMetadata: { importedCss: new Set(o.css ?? []), importedAssets: new Set() },
    });
    const chunks = [
      chunk('assets/index.js', { entry: true, page: 'src/main.tsx', imports: ['assets/react.js'] }),
      chunk('assets/react.js', {}),
      chunk('assets/Shell.js', { page: 'src/app/Shell.tsx', imports: ['assets/react.js', 'assets/menu.js'] }),
      chunk('assets/menu.js', {}),
      ...consoleRoutes().map(([route, pages]) =>
        chunk(`assets/${route.replace(/[/:]/g, '_')}.js`, { page: pages.at(-1)!, imports: ['assets/react.js', 'assets/table.js'], css: route === '/mma' ? ['assets/mma.css'] : [] }),
      ),
      chunk('assets/table.js', { imports: ['assets/menu.js'] }),
    ];
    return Object.fromEntries(chunks.map((c) => [c.fileName, c])) as unknown as OutputBundle;
  }

  it("lists per route its page's files and the shell's, less the entry's, the sign-in page without the shell", () => {
    const table = preloadTable(bundle());
    const files = (route: string) => table.routes[route]!.map((i) => table.files[i]);
    expect(files('/account/list')).toEqual(['assets/Shell.js', 'assets/menu.js', 'assets/_account_list.js', 'assets/table.js']);
    expect(files('/mma')).toEqual(['assets/Shell.js', 'assets/menu.js', 'assets/_mma.js', 'assets/mma.css', 'assets/table.js']);
    expect(files('/login')).toEqual(['assets/_login.js', 'assets/table.js', 'assets/menu.js']);
    expect(Object.keys(table.routes).sort()).toEqual(consoleRoutes().map(([route]) => route).sort());
    expect(table.home).toBe(homePath());
  });

  it('finds a page in a chunk it is not the facade of (a route-chunks group), and lists each route\'s scripts for bench/web-bundle', () => {
    const grouped = bundle();
    const list = grouped['assets/_account_list.js'] as unknown as { facadeModuleId: string | null; moduleIds: string[] };
    list.facadeModuleId = null;
    list.moduleIds.reverse();
    const table = preloadTable(grouped);
    expect(table.routes['/account/list']!.map((i) => table.files[i])).toEqual(['assets/Shell.js', 'assets/menu.js', 'assets/_account_list.js', 'assets/table.js']);
    const scripts = routeScripts(grouped);
    expect(scripts.entry).toEqual(['assets/index.js', 'assets/react.js']);
    const mma = scripts.routes.find((r) => r.route === '/mma')!;
    expect(mma.pages).toEqual(['assets/Shell.js', 'assets/_mma.js']);
    // Scripts only, the entry's included.
    expect(mma.scripts).toEqual(['assets/index.js', 'assets/react.js', 'assets/Shell.js', 'assets/menu.js', 'assets/_mma.js', 'assets/table.js']);
    expect(scripts.routes.map((r) => r.route).sort()).toEqual(consoleRoutes().map(([route]) => route).sort());
  });

  it('fails the build when a page of the router table has no chunk', () => {
    const partial = bundle();
    delete partial['assets/_mma.js'];
    expect(() => preloadTable(partial)).toThrow('route-preload: no chunk of src/features/mma/MmaPage.tsx (route /mma) in the bundle');
  });
});
