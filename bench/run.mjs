#!/usr/bin/env node
/**
 * `npm run bench [-- name...]`: runs the benchmarks (all by default) and prints
 * their numbers. Not part of `npm test`: these report, they do not pass or fail.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const all = ['web-bundle', 'accounts-list', 'machines-list', 'tasks', 'operations', 'operations-mma', 'fleet', 'account-lifecycle', 'catalogues', 'updater', 'web-vitals'];
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`Unknown benchmark '${name}'. Known: ${all.join(', ')}`);
    process.exit(2);
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
