#!/usr/bin/env node
/**
 * `npm test`: typecheck, lint, the unit and API tests, then the end-to-end tests,
 * one after the other; stops at the first step that fails (exit code of that
 * step). Prints each step's time and the total at the end, so that every run
 * says what the suite costs (issue 23: under 15 minutes on a 2-core machine).
 */
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['unit and API tests', ['run', 'test:unit']],
  ['end-to-end tests', ['run', 'test:e2e']],
];

/** `83.4` → `1 min 23 s`. */
function duration(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const started = performance.now();
const times = [];
for (const [name, args] of STEPS) {
  const t0 = performance.now();
  const run = spawnSync('npm', args, { stdio: 'inherit' });
  times.push(`${name} ${duration((performance.now() - t0) / 1000)}`);
  const code = run.status ?? 1;
  if (code !== 0) {
    console.log(`\nnpm test: ${name} failed (exit ${code}) after ${duration((performance.now() - started) / 1000)}: ${times.join(', ')}`);
    process.exit(code);
  }
}
console.log(`\nnpm test: passed in ${duration((performance.now() - started) / 1000)} (${times.join(', ')})`);
