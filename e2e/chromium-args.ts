/**
 * The command-line switches of the Chromium of `@sparticuz/chromium` as this
 * project runs it: the e2e tests (e2e/browser.ts) and bench/web-vitals
 * (bench/lib/lighthouse.ts). No Vitest import, so that the bench can use it.
 */
import chromium from '@sparticuz/chromium';

/**
 * Flags of @sparticuz/chromium that suit AWS Lambda but not a run here:
 * `--single-process` kills the browser with its first closed context, the
 * web-security switches would hide what a real browser refuses, and the GPU
 * emulated by SwiftShader (ANGLE) costs a core's worth of compositing on this
 * 2-core machine, where `--disable-gpu` composites in software (about a fifth
 * less time for a spec file; issue 23, the suite's time).
 */
const UNSUITED_FLAGS = new Set([
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
]);
/** This machine has no network beyond the npm registry; keep Chromium from trying. */
const OFFLINE_FLAGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** The switches to launch the Chromium with, and where its executable is (unpacked on first use). */
export async function chromiumLaunch(): Promise<{ executablePath: string; args: string[] }> {
  return { executablePath: await chromium.executablePath(), args: [...chromium.args.filter((a) => !UNSUITED_FLAGS.has(a)), ...OFFLINE_FLAGS] };
}
