/**
 * The script executor (`script.ts`) with real processes: stdout and stderr
 * lines to the output, file descriptor 3 and `::deployer:: ` lines to the
 * deployer log; exit codes and the last line; a timeout and a cancel killing
 * the whole process group (a grandchild `sleep` too); orphans cleaned up at
 * exit; the FLEET_* environment; a command that cannot start.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMmaClaimedOperation } from '@fleet/contracts';
import { claimed } from '../testing.js';
import type { ScriptExecutorConfig } from '../config.js';
import { processAlive } from './process-group.js';
import { commandLine, createScriptExecutor, operationEnv, upperSnake } from './script.js';
import type { ExecutorResult } from './types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mma-script-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `config` for `op`; answers its result and the lines it wrote. */
async function run(config: Omit<ScriptExecutorConfig, 'kind'>, o: { op?: TMmaClaimedOperation; timeoutMs?: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}) {
  const output: string[] = [];
  const deployerLog: string[] = [];
  const executor = createScriptExecutor({ config: { kind: 'script', ...config }, env: o.env ?? { PATH: process.env.PATH } });
  const started = Date.now();
  const result: ExecutorResult = await executor({
    operation: o.op ?? claimed(),
    signal: o.signal ?? new AbortController().signal,
    timeoutMs: o.timeoutMs ?? 30_000,
    output: (l) => output.push(l),
    deployerLog: (l) => deployerLog.push(l),
  });
  return { result, output, deployerLog, ms: Date.now() - started };
}

/** Waits until `file` holds a line, for a pid a script wrote. */
async function pidIn(file: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return Number(text.trim());
    if (Date.now() > deadline) throw new Error(`no pid in ${file}`);
    await sleep(20);
  }
}

describe('lines', () => {
  it('sends stdout and stderr to the output, fd 3 and ::deployer:: lines to the deployer log', async () => {
    const { result, output, deployerLog } = await run({
      shell: 'bash',
      command: 'echo "step 1 ✓ naïve"; echo "warning: disk 81%" >&2; echo "migrate: done" >&3; echo "::deployer:: artifacts: fetched"; printf "no newline at the end"',
    });
    expect(result).toEqual({ status: 'SUCCESS' });
    expect(output.sort()).toEqual(['no newline at the end', 'step 1 ✓ naïve', 'warning: disk 81%'].sort());
    expect(deployerLog.sort()).toEqual(['artifacts: fetched', 'migrate: done']);
  });

  it('runs a list of arguments without a shell', async () => {
    const { result, output } = await run({ command: ['printf', '%s\\n', 'a; echo b', '$HOME'] });
    expect(result.status).toBe('SUCCESS');
    expect(output).toEqual(['a; echo b', '$HOME']);
  });

  it('builds the command line of each shell', () => {
    expect(commandLine({ command: 'x' })).toEqual({ file: 'sh', args: ['-c', 'x'] });
    expect(commandLine({ command: 'x', shell: 'bash' })).toEqual({ file: 'bash', args: ['-c', 'x'] });
    expect(commandLine({ command: 'x', shell: 'pwsh' })).toEqual({ file: 'pwsh', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', 'x'] });
    expect(commandLine({ command: ['ansible-playbook', 'site.yml'] })).toEqual({ file: 'ansible-playbook', args: ['site.yml'] });
  });
});

describe('exit codes', () => {
  it('fails with the exit code and the output’s last line', async () => {
    const { result } = await run({ command: 'echo "nginx: testing"; echo "nginx -t: configuration test failed" >&2; echo "deploy: rolled back" >&3; exit 3' });
    expect(result).toEqual({ status: 'FAILURE', message: 'Exited with code 3: nginx -t: configuration test failed' });
    expect((await run({ command: 'exit 4' })).result).toEqual({ status: 'FAILURE', message: 'Exited with code 4' });
  });

  it('names a signal that killed the command', async () => {
    const { result } = await run({ command: 'echo before; kill -9 $$' });
    expect(result).toEqual({ status: 'FAILURE', message: 'Killed by SIGKILL: before' });
  });

  it('fails a command that cannot start', async () => {
    const { result } = await run({ command: ['/nonexistent/deploy'] });
    expect(result.status).toBe('FAILURE');
    expect(result.message).toMatch(/^Cannot start \/nonexistent\/deploy: .*ENOENT/);
  });
});

describe('stopping the process group', () => {
  it('on a timeout: SIGTERM to the command and its grandchild sleep; fails "Timed out"', async () => {
    const pids = join(dir, 'timeout.pid');
    const { result, output, ms } = await run({ shell: 'bash', command: `echo started; sleep 30 & echo $! > ${pids}; wait` }, { timeoutMs: 700 });
    expect(result).toEqual({ status: 'FAILURE', message: 'Timed out after 0.7 s' });
    expect(output).toEqual(['started']);
    expect(ms).toBeLessThan(5_000);
    const grandchild = await pidIn(pids);
    expect(processAlive(grandchild), `grandchild sleep ${grandchild} is gone`).toBe(false);
  });

  it('SIGKILLs a group that ignores SIGTERM after the grace', async () => {
    const pids = join(dir, 'stubborn.pid');
    const executor = createScriptExecutor({ config: { kind: 'script', shell: 'bash', command: `trap '' TERM; sleep 30 & echo $! > ${pids}; wait; wait` }, killAfterMs: 300 });
    const result = await executor({ operation: claimed(), signal: new AbortController().signal, timeoutMs: 500, output: () => undefined, deployerLog: () => undefined });
    expect(result.message).toBe('Timed out after 0.5 s');
    expect(processAlive(await pidIn(pids))).toBe(false);
  });

  it('on an aborted signal (a cancel): stops the group and answers Stopped', async () => {
    const pids = join(dir, 'cancel.pid');
    const cancel = new AbortController();
    const running = run({ command: `sleep 30 & echo $! > ${pids}; wait` }, { signal: cancel.signal });
    const grandchild = await pidIn(pids);
    expect(processAlive(grandchild)).toBe(true);
    cancel.abort();
    const { result, ms } = await running;
    expect(result).toEqual({ status: 'FAILURE', message: 'Stopped' });
    expect(ms).toBeLessThan(5_000);
    expect(processAlive(grandchild)).toBe(false);
  });

  it('stops what the command left running when it exits (an orphan holding the pipes)', async () => {
    const pids = join(dir, 'orphan.pid');
    const { result, ms } = await run({ command: `sleep 30 & echo $! > ${pids}; echo done` });
    expect(result.status).toBe('SUCCESS');
    expect(ms).toBeLessThan(5_000);
    expect(processAlive(await pidIn(pids))).toBe(false);
  });
});

describe('environment', () => {
  it("sets the MMA's environment, the executor's env and the FLEET_* variables", async () => {
    const op = claimed({ typeName: 'UpdateSoftware', params: { versions: { launcher: 'master|0f0f0f0' }, bundleVersion: '9.9.9.1', populateLauncher: true, attempts: 3, nested: { a: 1 } } });
    const { result, output } = await run({ command: 'env | grep -E "^(FLEET_|DEPLOY_ROOT=|INHERITED=)" | sort', env: { DEPLOY_ROOT: '/opt/irmn' } }, { op, env: { PATH: process.env.PATH, INHERITED: 'yes' } });
    expect(result.status).toBe('SUCCESS');
    expect(Object.fromEntries(output.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))).toEqual({
      DEPLOY_ROOT: '/opt/irmn',
      INHERITED: 'yes',
      FLEET_OPERATION_ID: '41',
      FLEET_OPERATION_TYPE: 'UpdateSoftware',
      FLEET_ATTEMPT: '2',
      FLEET_RESUMED: 'true',
      FLEET_MACHINE_ID: '7',
      FLEET_MACHINE_NAME: 'acme-prod-1',
      FLEET_ACCOUNT_ID: '3',
      FLEET_HOST_NAME: 'ip-10-0-0-7.compute.internal',
      FLEET_CLOUD_ID: 'i-0abc',
      FLEET_IS_LAUNCHER: 'true',
      FLEET_IS_SITE_MASTER: 'false',
      FLEET_SAMPLE_DATA: 'Standard',
      FLEET_SAMPLE_DATA_FILE: '',
      FLEET_PARAMS: JSON.stringify(op.params),
      FLEET_PARAM_BUNDLE_VERSION: '9.9.9.1',
      FLEET_PARAM_POPULATE_LAUNCHER: 'true',
      FLEET_PARAM_ATTEMPTS: '3',
      FLEET_VERSIONS: '{"launcher":"master|0f0f0f0"}',
      FLEET_VERSION_LAUNCHER: 'master|0f0f0f0',
      FLEET_INSTALLED_VERSIONS: '{}',
    });
  });

  it('gives what the server knows the machine runs', () => {
    const env = operationEnv(claimed({ machine: { ...claimed().machine, installedVersions: { launcher: 'master|0f0f0f0' } } }));
    expect(JSON.parse(env.FLEET_INSTALLED_VERSIONS!)).toEqual({ launcher: 'master|0f0f0f0' });
  });

  it("gives a TestLatestCode the target the server fixed at the claim", () => {
    const env = operationEnv(claimed({ typeName: 'TestLatestCode', params: { branch: 'master', versions: { launcher: 'master|1234567' } } }));
    expect(env.FLEET_VERSIONS).toBe('{"launcher":"master|1234567"}');
    expect(env.FLEET_PARAM_BRANCH).toBe('master');
  });

  it("gives another type the machine's desired versions", () => {
    const env = operationEnv(claimed({ typeName: 'ApplyConfig', params: { versions: { launcher: 'x' } } }));
    expect(JSON.parse(env.FLEET_VERSIONS!)).toEqual({ launcher: 'master|abc1234', siteMaster: 'release/5|def5678' });
    expect(env.FLEET_VERSION_SITE_MASTER).toBe('release/5|def5678');
  });

  it('spells names in upper snake case', () => {
    expect(['populateLauncher', 'bundleVersion', 'site-master', 'URLPath', 'a.b c']. map(upperSnake)).toEqual(['POPULATE_LAUNCHER', 'BUNDLE_VERSION', 'SITE_MASTER', 'URL_PATH', 'A_B_C']);
  });
});
