#!/usr/bin/env node
/**
 * `npm test`: typecheck and the console's build at once, then the unit and API
 * tests with lint beside them, then the end-to-end tests against that build;
 * stops at the first step that fails (exit code of that step). The first step
 * of a stage prints as it goes, the others their whole output when they end. Prints each step's time and the total at the end, so that every
 * run says what the suite costs (issue 23: under 15 minutes on a 2-core machine).
 */
import { spawn } from 'node:child_process';

/** Steps of a stage run at once; the stages run one after the other. */
const STAGES = [
  [
    ['typecheck', ['run', 'typecheck']],
    ['build', ['run', 'build']],
  ],
  // The unit and API tests wait for PostgreSQL a third of their time: lint fills it.
  [
    ['unit and API tests', ['run', 'test:unit']],
    ['lint', ['run', 'lint']],
  ],
  [['end-to-end tests', ['exec', '--', 'vitest', 'run', '--config', 'e2e/vitest.config.ts']]],
];

/** `83.4` → `1 min 23 s`. */
function duration(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Runs `npm args`, printing as it goes (`live`) or its whole output when it
 * ends. Resolves to its exit code.
 */
function run(args, live) {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout?.on('data', (d) => output.push(d));
    child.stderr?.on('data', (d) => output.push(d));
    child.on('close', (code) => {
      if (!live) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

const started = performance.now();
const times = [];
for (const stage of STAGES) {
  const results = await Promise.all(
    stage.map(async ([name, args], index) => {
      const t0 = performance.now();
      const code = await run(args, index === 0);
      times.push(`${name} ${duration((performance.now() - t0) / 1000)}`);
      return { name, code };
    }),
  );
  const failed = results.find((r) => r.code !== 0);
  if (failed) {
    console.log(`\nnpm test: ${failed.name} failed (exit ${failed.code}) after ${duration((performance.now() - started) / 1000)}: ${times.join(', ')}`);
    process.exit(failed.code);
  }
}
console.log(`\nnpm test: passed in ${duration((performance.now() - started) / 1000)} (${times.join(', ')})`);
