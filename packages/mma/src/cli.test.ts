/**
 * The command line (`cli.ts`) and the state file (`state.ts`): bad arguments,
 * a bad configuration, a token of neither form and an unusable host name exit
 * 2 with a clear message; the program started by tsx does the same; the
 * credential is reused for the same registration token, and a new
 * registration token registers again.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MmaClient } from './client.js';
import { main, USAGE } from './cli.js';
import { createMemoryLogger } from './logger.js';
import { readState, resolveCredential, sha256 } from './state.js';

let dir: string;
let config: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mma-cli-'));
  config = join(dir, 'mma.yaml');
  await writeFile(config, 'host: mma-1.fleet.example\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  const printed: string[] = [];
  const code = await main(argv, { print: (t) => printed.push(t), log: createMemoryLogger(), env: {} });
  return { code, text: printed.join('\n') };
}

describe('main', () => {
  it('refuses bad arguments with exit code 2 and the usage', async () => {
    expect(await run(['--server', 'https://fleet.example.com'])).toEqual({ code: 2, text: `Missing --config\n\n${USAGE}` });
    expect((await run(['--config', config])).text).toMatch(/^Missing --server/);
    expect((await run(['--server', 'fleet.example.com', '--config', config])).text).toMatch(/^--server must be a URL/);
    expect((await run(['--server', 'ftp://fleet.example.com', '--config', config])).text).toMatch(/^--server must be an http or https URL/);
    const unknown = await run(['--server', 'https://fleet.example.com', '--config', config, '--tokn', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.text).toMatch(/^Unknown option '--tokn'/);
    expect((await run(['stray'])).code).toBe(2);
    expect(await run(['--help'])).toEqual({ code: 0, text: USAGE });
  });

  it('refuses a bad configuration, a token of neither form and an unusable host name with exit code 2', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'concurrency: 0\n');
    expect(await run(['--server', 'https://fleet.example.com', '--config', bad])).toEqual({ code: 2, text: `Invalid configuration ${bad}:\n  - concurrency: Too small: expected number to be >=1` });
    const token = await run(['--server', 'https://fleet.example.com', '--config', config, '--token', 'glrt-abc', '--state', join(dir, 'none.json')]);
    expect(token).toEqual({ code: 2, text: '--token must be a registration token (mmar_…) or an MMA credential (mmat_…)' });
    const noToken = await run(['--server', 'https://fleet.example.com', '--config', config, '--state', join(dir, 'none.json')]);
    expect(noToken.code).toBe(2);
    expect(noToken.text).toMatch(/^No --token, and no credential in/);
    const hostless = join(dir, 'hostless.yaml');
    await writeFile(hostless, 'host: under_score\n');
    expect((await run(['--server', 'https://fleet.example.com', '--config', hostless])).text).toContain('host: Must be a host name: letters, digits, hyphens and dots');
  });

  it('exits 2 when started as a program with bad arguments', async () => {
    const program = new URL('./cli.ts', import.meta.url).pathname;
    const failed = await promisify(execFile)(process.execPath, ['--import', 'tsx', program, '--server', 'nope', '--config', config]).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining("--server must be a URL (https://fleet.example.com), not 'nope'") });
  }, 30_000);
});

describe('resolveCredential', () => {
  const registrar = (calls: string[]): MmaClient =>
    ({
      register: async (body: { token: string }) => {
        calls.push(body.token);
        return { id: calls.length, mmaClassId: 4, token: `mmat_${calls.length}` };
      },
    }) as unknown as MmaClient;
  const resolve = (token: string | undefined, stateFile: string, calls: string[]) =>
    resolveCredential({ token, stateFile, server: 'https://fleet.example.com', host: 'mma-1', version: '0.1.0', client: registrar(calls), log: createMemoryLogger() });

  it('exchanges a registration token once, reuses the credential for it, and registers again for a new one', async () => {
    const stateFile = join(dir, 'state.json');
    const calls: string[] = [];
    expect(await resolve('mmar_first', stateFile, calls)).toBe('mmat_1');
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
    expect(await readState(stateFile)).toMatchObject({ agentId: 1, token: 'mmat_1', registrationTokenSha256: sha256('mmar_first') });
    expect(await resolve('mmar_first', stateFile, calls)).toBe('mmat_1');
    expect(await resolve(undefined, stateFile, calls)).toBe('mmat_1');
    expect(await resolve('mmat_given', stateFile, calls)).toBe('mmat_given');
    expect(calls).toEqual(['mmar_first']);
    expect(await resolve('mmar_second', stateFile, calls)).toBe('mmat_2');
    expect(calls).toEqual(['mmar_first', 'mmar_second']);
    await writeFile(stateFile, '{"not": "a state"}');
    await expect(resolve(undefined, stateFile, calls)).rejects.toThrow(`${stateFile} is not an MMA state file`);
  });
});
