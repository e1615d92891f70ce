/**
 * Vite build of the console (DESIGN §10): React plugin, output in `dist`
 * (served by the API server at `/`), and a dev server that proxies `/api` to
 * the API on port 3000. `pureContracts` keeps the unused schemas out of the bundle,
 * `routePreload` starts the first screen's code with the entry's, `antdZeroRuntime` leaves
 * out antd's style generators that its zeroRuntime mode never calls, `deepImports` points
 * antd's imports at the modules they take and loads its rarely drawn parts when first drawn,
 * `routeChunks` puts the modules of the same routes in one file, after a first build that
 * says which routes load which module (build/, see there).
 * Every file is also written gzip'd and brotli'd beside itself (`.gz`, `.br`), which
 * the server sends to browsers that accept them (@fastify/static `preCompressed`).
 *
 * The build takes React Router's production files: its package exports only
 * `dist/development` (remix-run/react-router#12532, #14753: dev warnings and
 * checks on every navigation, and about 8 KB gzip more on every page); the dev
 * server keeps them.
 */
import { createRequire } from 'node:module';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { pureContracts } from './build/pure-contracts.ts';
import { routePreload } from './build/route-preload.ts';
import { antdZeroRuntime } from './build/antd-zero-runtime.ts';
import { deepImports } from './build/deep-imports.ts';
import { isRouteChunksProbe, routeChunks } from './build/route-chunks.ts';
import { consoleSchemaValues } from '../contracts/src/console-values.ts';

/** `react-router`'s production ES module, beside the development one its exports name. */
function reactRouterProduction(): string {
  const development = createRequire(import.meta.url).resolve('react-router');
  const production = development.replace(/[\\/]dist[\\/]development[\\/]index\.m?js$/, '/dist/production/index.mjs');
  if (production === development) throw new Error(`react-router resolved to ${development}: not the layout this config expects`);
  return production;
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    pureContracts(),
    antdZeroRuntime(),
    deepImports(),
    routeChunks(),
    // What only finishes the files, left out of route-chunks' first build.
    ...(isRouteChunksProbe() ? [] : [routePreload(), compression({ algorithms: ['gzip', 'brotliCompress'], exclude: [/\.map$/], threshold: 1024, logLevel: 'silent' })]),
  ],
  // The schema values the console reads at run time, computed here (src/lib/schema-values.ts).
  define: { __CONSOLE_SCHEMA_VALUES__: JSON.stringify(consoleSchemaValues()) },
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction() }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: read by bench/web-bundle to size each route.
    manifest: true,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/taskHub': { target: 'http://localhost:3000', ws: true },
    },
  },
}));
