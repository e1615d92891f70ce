/**
 * `npm run bench:profile-summary -- <folder or .cpuprofile>`: where a benchmark
 * server's CPU went, from the V8 CPU profile it wrote when it stopped
 * (`BENCH_CPU_PROF=<folder> npm run bench -- tasks`, `lib/server.ts`).
 *
 * Prints the self time (ms) of the heaviest packages (`node_modules/<name>`,
 * our own files by path under `src/`, Node's internals, and V8's pseudo
 * frames) and of the heaviest functions. Two readings to keep in mind:
 * `(idle)` is the thread waiting for work, and time inside a system call such
 * as `writev` includes waiting for a core while the machine is busy (the CPU
 * the process really used is in `/proc`, as the request benchmarks print it).
 * With a folder, the largest profile in it (the main thread's) is read. Two
 * more arguments keep only the samples between two readings of the monotonic
 * clock, in microseconds (bench/tasks prints the window of its burst).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The profile file `arg` names: itself, or the largest `.cpuprofile` in a folder. */
function profileFile(arg: string): string {
  if (!statSync(arg).isDirectory()) return arg;
  const files = readdirSync(arg)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(arg, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (!files[0]) throw new Error(`no .cpuprofile in ${arg}`);
  return files[0];
}

/** `node_modules/<package>`, `src/<path>` of our code, or the frame's own name (V8 and Node internals). */
function packageOf(url: string, functionName: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const ours = /\/src\/(.+)$/.exec(url);
  if (ours) return `src/${ours[1]}`;
  return url || functionName || '(native)';
}

/** Self time in ms per key, heaviest first. */
function heaviest(times: Map<string, number>, n: number): string[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${(us / 1000).toFixed(0).padStart(8)}  ${key}`);
}

/**
 * The heaviest packages and functions of the profile in `file`; with `window`
 * (microseconds of the system's monotonic clock, as `process.hrtime` reads it in
 * any process), only the samples taken within it.
 */
export function summarise(file: string, top = 30, window?: { fromUs: number; toUs: number }): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    total += us;
  });
  return [
    `${file}: ${(total / 1000).toFixed(0)} ms sampled`,
    'self ms by package:',
    ...heaviest(byPackage, top),
    'self ms by function:',
    ...heaviest(byFunction, top),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [arg, from, to] = process.argv.slice(2);
  if (!arg) {
    console.error('usage: npm run bench:profile-summary -- <folder or .cpuprofile> [<from µs> <to µs>]');
    process.exit(2);
  }
  console.log(summarise(profileFile(arg), 30, from && to ? { fromUs: Number(from), toUs: Number(to) } : undefined));
}
