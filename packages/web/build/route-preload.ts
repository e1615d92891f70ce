/**
 * Build plugin (issue 26 point 2, "data and code for the first screen start in
 * parallel"): the code of the screen a page load opens starts downloading while
 * the entry's does, instead of after it.
 *
 * Without it a cold load is a waterfall: the browser fetches the entry and its
 * static imports, evaluates them (React, antd, the router), and only then does the
 * router's `lazy()` ask for the shell and the page, and their imports (about 55
 * files on the accounts list, half a second on this machine).
 *
 * The plugin emits `assets/route-preload-<hash>.js`, a classic script that
 * `index.html` runs first in its head, before the entry module. It reads the
 * route from `location.hash` and the session from local storage (the sign-in
 * page when there is no token, as the guard will send it there; the default
 * screen for `/` and unknown paths) and adds a `<link rel="modulepreload">` for
 * every script the route will import (its page chunk, the shell's, and their
 * static imports, less what the entry already preloads) and a
 * `<link rel="preload" as="style">` for their style sheets. The router's later
 * `import()` finds them in the module map. A wrong guess (an expired token)
 * costs some downloads, never a wrong screen.
 *
 * A file of its own, not inline: the Content-Security-Policy allows only
 * scripts from the server (`script-src 'self'`).
 *
 * Routes and pages come from the router table (build/route-pages.ts); a page
 * module without a chunk in the bundle fails the build.
 */
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { Plugin } from 'vite';
import type { OutputBundle, OutputChunk, PluginContext } from 'rolldown';
import { consoleRoutes, homePath, LOGIN_ROUTE, ROUTE_SCRIPTS_FILE, WEB_ROOT, type RouteScripts } from './route-pages.ts';

/** The local-storage key of the session token (src/app/auth/token-store.ts). */
export const TOKEN_KEY = 'fleet.token';

/**
 * What the script needs: the files to preload (`files`), each route pattern's
 * as indexes into `files` (a route shares most of its files with the others),
 * the default route and the sign-in route.
 */
export interface PreloadTable {
  files: string[];
  routes: Record<string, number[]>;
  home: string;
  login: string;
  tokenKey: string;
}

/**
 * The preload script's source for `table` (a classic script, no module syntax:
 * it runs before the entry). Exported for its test, which runs it in a sandbox.
 */
export function preloadScript(table: PreloadTable): string {
  return `(function () {
  var table = ${JSON.stringify(table)};
  var token = null;
  try { token = window.localStorage.getItem(table.tokenKey); } catch (e) { /* storage refused: signed out */ }
  var path = window.location.hash.replace(/^#/, '').split('?')[0] || '/';
  function match(p) {
    for (var route in table.routes) {
      var pattern = new RegExp('^' + route.replace(/:[^/]+/g, '[^/]+') + '/?$');
      if (pattern.test(p)) return route;
    }
    return null;
  }
  var route = token ? (path === table.login ? null : match(path)) || table.home : table.login;
  var indexes = table.routes[route] || [];
  for (var i = 0; i < indexes.length; i += 1) {
    var file = table.files[indexes[i]];
    var link = document.createElement('link');
    var css = /\\.css$/.test(file);
    link.rel = css ? 'preload' : 'modulepreload';
    if (css) link.as = 'style';
    link.crossOrigin = '';
    link.href = '/' + file;
    document.head.appendChild(link);
  }
})();
`;
}

/** The files of `chunk` and of everything it imports statically, scripts and style sheets. */
function closure(bundle: OutputBundle, chunk: OutputChunk, into = new Set<string>()): Set<string> {
  if (into.has(chunk.fileName)) return into;
  into.add(chunk.fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
  for (const file of chunk.imports) {
    const imported = bundle[file];
    if (imported?.type === 'chunk') closure(bundle, imported, into);
  }
  return into;
}

/** A route of the router table with the files it loads when opened: its pages' chunks and what they import statically, style sheets included. */
interface RouteFiles {
  route: string;
  /** The chunks that hold the route's page modules (a page's own chunk, or the route-chunks group it is in). */
  pages: OutputChunk[];
  loaded: Set<string>;
}

/** The entry's files, and per route of the router table the files it loads. Throws when a page has no chunk. */
function routeFiles(bundle: OutputBundle, web: string): { entry: Set<string>; routes: RouteFiles[] } {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('route-preload: the bundle has no entry chunk');
  const byModule = new Map(chunks.flatMap((c) => c.moduleIds.map((id) => [relative(web, id), c] as const)));
  return {
    entry: closure(bundle, entry),
    routes: consoleRoutes(web).map(([route, pages]) => {
      const held = pages.map((page) => {
        const chunk = byModule.get(page);
        if (!chunk) throw new Error(`route-preload: no chunk of ${page} (route ${route}) in the bundle`);
        return chunk;
      });
      const loaded = new Set<string>();
      for (const chunk of held) closure(bundle, chunk, loaded);
      return { route, pages: held, loaded };
    }),
  };
}

/** The preload table of a built bundle: per route, its pages' files less the entry's. */
export function preloadTable(bundle: OutputBundle, web = WEB_ROOT): PreloadTable {
  const { entry, routes: loadedByRoute } = routeFiles(bundle, web);
  const files: string[] = [];
  const indexOf = (file: string) => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1);
  const routes: Record<string, number[]> = {};
  for (const { route, loaded } of loadedByRoute) routes[route] = [...loaded].filter((f) => !entry.has(f)).map(indexOf);
  return { files, routes, home: homePath(web), login: LOGIN_ROUTE, tokenKey: TOKEN_KEY };
}

/** The {@link RouteScripts} of a built bundle. */
export function routeScripts(bundle: OutputBundle, web = WEB_ROOT): RouteScripts {
  const { entry, routes } = routeFiles(bundle, web);
  const scripts = (files: Iterable<string>) => [...files].filter((f) => f.endsWith('.js'));
  return {
    entry: scripts(entry),
    routes: routes.map(({ route, pages, loaded }) => ({ route, pages: [...new Set(pages.map((c) => c.fileName))], scripts: scripts(new Set([...entry, ...loaded])) })),
  };
}

export function routePreload(): Plugin {
  return {
    name: 'fleet:route-preload',
    apply: 'build',
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: ROUTE_SCRIPTS_FILE, source: JSON.stringify(routeScripts(bundle), null, 1) });
    },
    // After Vite's own tags (the entry, its preloads); called while Vite writes
    // index.html into the bundle, so the compressed copies see the change.
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) throw new Error('route-preload: index.html transformed without a bundle (a build without Rolldown output?)');
        const source = preloadScript(preloadTable(ctx.bundle));
        const fileName = `assets/route-preload-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
        // Vite calls this hook with its generateBundle's context (not in its types): a build that
        // stops doing so fails here rather than ship a page naming a missing script.
        const context = this as unknown as Partial<Pick<PluginContext, 'emitFile'>>;
        if (typeof context.emitFile !== 'function') throw new Error('route-preload: Vite no longer gives transformIndexHtml a context that can emit files');
        context.emitFile({ type: 'asset', fileName, source });
        const charset = /<meta charset="[^"]*"\s*\/?>/.exec(html)?.[0];
        if (!charset) throw new Error('route-preload: index.html has no <meta charset>');
        // First after the charset: the parser runs it before it reaches the entry module.
        return html.replace(charset, `${charset}\n    <script src="/${fileName}"></script>`);
      },
    },
  };
}
