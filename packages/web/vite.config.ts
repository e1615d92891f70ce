/**
 * Vite build of the console (DESIGN §2, §10): React plugin, output in `dist`
 * (served by the API server at `/`), and a dev server that proxies `/api` to
 * the API on port 3000. `pureContracts` keeps zod out of the bundle (see there).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pureContracts } from './vite-plugin-pure-contracts.ts';

export default defineConfig({
  plugins: [react(), pureContracts()],
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
});
