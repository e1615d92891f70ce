/**
 * Build plugin (issue 26, script per route): the console's code in one file
 * per set of routes that load it, instead of Rolldown's automatic chunks.
 *
 * Rolldown puts a module in a chunk by the entries that reach it, and each page
 * and each dialog loaded when opened is an entry of its own: the accounts list
 * loaded its code from 91 files, edit account from 122. Each file compresses on
 * its own and carries its imports and exports, so a route's script was 6–10 %
 * larger than the same code in one file (gzip of the files one by one against
 * their concatenation, 2026-12-03).
 *
 * Two builds. The first (no files written, no minifying, no compression) says
 * which modules end up in which chunk once unused code is gone. From it, each
 * module that some route loads when opened gets its signature: the routes whose
 * files (the entry's, the shell's, the page's, and their static imports)
 * include that module's chunk. The second build, the real one, is given one
 * Rolldown `codeSplitting` group per signature: a route then loads one file
 * per signature it belongs to (the accounts list 27 instead of 91), and never
 * a module it does not use, since a file holds only modules of the exact same
 * set of routes. Modules only a dialog loads when opened keep Rolldown's
 * automatic chunks.
 *
 * A group takes only the modules it names (`includeDependenciesRecursively:
 * false`): antd's index, a module every route imports, reaches every antd
 * component before unused code is dropped, and a group taking its
 * dependencies took them all (tried 2026-12-03: the sign-in page 157 → 243 KB
 * gzip). No chunk cycle comes of it: a module's static imports are loaded by
 * every route that loads it, so they are in its own group or in one of more
 * routes.
 *
 * The routes and their pages come from the router table (build/route-pages.ts).
 * Costs the build a second pass (about 9 s on this machine).
 */
import { resolve } from 'node:path';
import { build, type Plugin, type Rollup } from 'vite';
import { consoleRoutes, WEB_ROOT } from './route-pages.ts';

/** Set while the first build runs, so that it does not start one of its own and leaves out what only the files need. */
const PROBE_ENV = 'FLEET_ROUTE_CHUNKS_PROBE';

/** True in the first of the two builds: the config leaves out the plugins that only finish files (compression, preload). */
export function isRouteChunksProbe(): boolean {
  return process.env[PROBE_ENV] === '1';
}

/** A chunk of the first build, as far as signatures need it. */
export interface ProbeChunk {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

/** One group of the second build: the modules of one signature. */
export interface RouteGroup {
  name: string;
  /** The routes that load its modules. */
  routes: string[];
  moduleIds: string[];
}

/**
 * The modules of `chunks` grouped by the routes that load them: `routes` maps
 * each route to its page modules (absolute paths; the entry's files are added
 * to each). Groups of more routes first. Throws when a page has no chunk.
 */
export function routeGroups(chunks: ProbeChunk[], routes: [string, string[]][]): RouteGroup[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const byFacade = new Map(chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk] as const] : [])));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('route-chunks: the first build has no entry chunk');
  const reach = (file: string, seen: Set<string>): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) reach(imported, seen);
    return seen;
  };
  /** Per chunk file, the routes that load it. */
  const loadedBy = new Map<string, string[]>();
  for (const [route, pages] of routes) {
    const files = reach(entry.fileName, new Set());
    for (const page of pages) {
      const chunk = byFacade.get(page);
      if (!chunk) throw new Error(`route-chunks: no chunk of ${page} (route ${route})`);
      reach(chunk.fileName, files);
    }
    for (const file of files) loadedBy.set(file, [...(loadedBy.get(file) ?? []), route]);
  }
  const groups = new Map<string, RouteGroup>();
  for (const [file, loaders] of loadedBy) {
    const key = loaders.sort().join(' ');
    const group = groups.get(key) ?? { name: '', routes: loaders, moduleIds: [] };
    group.moduleIds.push(...byFile.get(file)!.moduleIds);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.routes.length - a.routes.length || a.routes.join(' ').localeCompare(b.routes.join(' ')))
    .map((group, index) => ({ ...group, name: group.routes.length === routes.length ? 'common' : `routes-${index}` }));
}

/** The first build's chunks (the config at `configFile`, nothing written). */
async function probe(configFile: string, mode: string): Promise<ProbeChunk[]> {
  process.env[PROBE_ENV] = '1';
  try {
    const result = await build({ configFile, mode, logLevel: 'silent', build: { write: false, minify: false, manifest: false, reportCompressedSize: false } });
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    return outputs.flatMap((output) =>
      output.output.flatMap((item) =>
        item.type === 'chunk' ? [{ fileName: item.fileName, isEntry: item.isEntry, facadeModuleId: item.facadeModuleId, imports: item.imports, moduleIds: item.moduleIds }] : [],
      ),
    );
  } finally {
    delete process.env[PROBE_ENV];
  }
}

export function routeChunks(web = WEB_ROOT): Plugin {
  return {
    name: 'fleet:route-chunks',
    apply: 'build',
    async config(_config, { mode }) {
      if (isRouteChunksProbe()) return;
      const routes = consoleRoutes(web).map(([route, pages]): [string, string[]] => [route, pages.map((page) => resolve(web, page))]);
      const groups = routeGroups(await probe(resolve(web, 'vite.config.ts'), mode), routes);
      const signature = new Map(groups.flatMap((group) => group.moduleIds.map((id) => [id, group.name] as const)));
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: groups.map((group) => ({
                  name: group.name,
                  test: (id: string) => signature.get(id) === group.name,
                  priority: group.routes.length,
                  includeDependenciesRecursively: false,
                })),
              },
            },
          },
        },
      };
    },
  };
}
