#!/usr/bin/env node
/**
 * `npm test`: the unit and API tests with the typecheck, the console's build and
 * lint beside them, then the end-to-end tests against that build;
 * stops at the first step that fails (exit code of that step). The first step
 * of a stage prints as it goes, the others their whole output when they end. Prints each step's time and the total at the end, so that every
 * run says what the suite costs (issue 23: under 15 minutes on a 2-core machine).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Steps of a stage run at once; the stages run one after the other. */
const STAGES = [
  // The unit and API tests wait for PostgreSQL much of their time, and the
  // typecheck and the build use one core: each fills the other's idle time.
  [
    ['unit and API tests', ['run', 'test:unit']],
    ['typecheck', ['run', 'typecheck']],
    ['build', ['run', 'build']],
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

/** The machine's idle and total CPU time so far (jiffies, from /proc/stat), or undefined off Linux. */
function cpuTimes() {
  if (!existsSync('/proc/stat')) return undefined;
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3] + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
}

/** `': CPU idle 12 %'` for the time since `before`, or '' off Linux: how much room a stage left on the machine. */
function idleSince(before) {
  const now = cpuTimes();
  if (!before || !now || now.total === before.total) return '';
  return `: CPU idle ${Math.round((100 * (now.idle - before.idle)) / (now.total - before.total))} %`;
}

const started = performance.now();
/** Per stage: its steps' times, then the machine's idle CPU in it. */
const times = [];
for (const stage of STAGES) {
  const cpuBefore = cpuTimes();
  const stageTimes = [];
  const results = await Promise.all(
    stage.map(async ([name, args], index) => {
      const t0 = performance.now();
      const code = await run(args, index === 0);
      stageTimes.push(`${name} ${duration((performance.now() - t0) / 1000)}`);
      return { name, code };
    }),
  );
  times.push(stageTimes.join(', ') + idleSince(cpuBefore));
  const failed = results.find((r) => r.code !== 0);
  if (failed) {
    console.log(`\nnpm test: ${failed.name} failed (exit ${failed.code}) after ${duration((performance.now() - started) / 1000)}: ${times.join('; ')}`);
    process.exit(failed.code);
  }
}
console.log(`\nnpm test: passed in ${duration((performance.now() - started) / 1000)} (${times.join('; ')})`);
