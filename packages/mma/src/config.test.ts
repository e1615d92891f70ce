/**
 * The MMA's configuration (`config.ts`): defaults, every field's error named
 * with its path, YAML errors with their line, and the executor chosen for a
 * type (its own, else `default`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, executorFor, loadConfig, parseConfig } from './config.js';

/** The problems `text` is refused with (fails the test when it is accepted). */
function problems(text: string): string[] {
  try {
    parseConfig(text, 'mma.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain('Invalid configuration mma.yaml');
    return (err as ConfigError).problems;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseConfig', () => {
  it('fills the defaults, and takes an empty file as an empty configuration', () => {
    expect(parseConfig('', 'mma.yaml')).toEqual({ concurrency: 4, heartbeatSeconds: 5, shutdownGraceSeconds: 30, executors: {} });
    const config = parseConfig(
      `
concurrency: 8
heartbeatSeconds: 1
shutdownGraceSeconds: 120
host: mma-1.fleet.example
executors:
  UpdateSoftware: { kind: script, shell: bash, command: ./update.sh, timeoutSeconds: 900, env: { DEPLOY_ROOT: /opt/irmn }, cwd: /opt/deploy }
  SmokeTest: { kind: script, command: [ansible-playbook, smoke.yml] }
  default: { kind: simulated, delayMs: 0, failMachines: [broken-1] }
`,
      'mma.yaml',
    );
    expect(config).toMatchObject({ concurrency: 8, heartbeatSeconds: 1, shutdownGraceSeconds: 120, host: 'mma-1.fleet.example' });
    expect(config.executors.UpdateSoftware).toEqual({ kind: 'script', shell: 'bash', command: './update.sh', timeoutSeconds: 900, env: { DEPLOY_ROOT: '/opt/irmn' }, cwd: '/opt/deploy' });
    expect(executorFor(config, 'SmokeTest')).toEqual({ kind: 'script', command: ['ansible-playbook', 'smoke.yml'] });
    expect(executorFor(config, 'ApplyConfig')).toEqual({ kind: 'simulated', delayMs: 0, failMachines: ['broken-1'] });
    expect(executorFor(parseConfig('executors: { SmokeTest: { kind: simulated } }', 'x'), 'ApplyConfig')).toBeUndefined();
  });

  it('names every top-level field error with its path', () => {
    expect(problems('concurrency: 0\nheartbeatSeconds: 31\nshutdownGraceSeconds: -1\nhost: "not a host"\ncolour: blue\n')).toEqual([
      'concurrency: Too small: expected number to be >=1',
      'heartbeatSeconds: Too big: expected number to be <=30',
      'shutdownGraceSeconds: Too small: expected number to be >=0',
      'host: Must be a host name: letters, digits, hyphens and dots',
      '(top level): Unrecognized key: "colour"',
    ]);
    expect(problems('concurrency: 65')).toEqual(['concurrency: Too big: expected number to be <=64']);
    expect(problems('concurrency: 1.5')).toEqual(['concurrency: Invalid input: expected int, received number']);
    expect(problems('heartbeatSeconds: soon')).toEqual(['heartbeatSeconds: Invalid input: expected number, received string']);
    expect(problems('- a list')).toEqual(['(top level): Invalid input: expected object, received array']);
  });

  it('names every executor field error with its path', () => {
    const found = problems(`
executors:
  Deploy: { kind: script, command: x }
  SmokeTest: { kind: scripted, command: x }
  ApplyConfig: { kind: script }
  Populate: { kind: script, command: "  " }
  UpdateSoftware: { kind: script, command: [deploy, ""], shell: bash }
  Backup: { kind: script, command: x, shell: zsh, timeoutSeconds: 0, cwd: "", timeoutSecond: 3 }
  RestoreBackup: { kind: script, command: x, env: { 1BAD: x, FLEET_MACHINE_ID: "7", GOOD: 3 } }
  default: { kind: simulated, delayMs: -5, failMachines: [""], command: x }
`);
    expect(found).toEqual([
      expect.stringMatching(/^executors\.Deploy: Deploy is not an operation type \(UpdateSoftware, .*\) nor default$/),
      "executors.SmokeTest.kind: kind must be 'script' or 'simulated'",
      'executors.ApplyConfig.command: Give the command as a string (run by the shell) or as a list of the program and its arguments',
      'executors.Populate.command: The command is empty',
      'executors.UpdateSoftware.command.1: An argument is empty',
      'executors.UpdateSoftware.shell: shell applies to a command given as a string; a list of arguments runs without a shell',
      'executors.Backup.shell: Invalid option: expected one of "bash"|"sh"|"pwsh"',
      'executors.Backup.timeoutSeconds: Too small: expected number to be >0',
      'executors.Backup.cwd: Too small: expected string to have >=1 characters',
      'executors.Backup: Unrecognized key: "timeoutSecond"',
      'executors.RestoreBackup.env.1BAD: An environment variable name is letters, digits and underscores, not starting with a digit',
      'executors.RestoreBackup.env.FLEET_MACHINE_ID: FLEET_* variables are set by the MMA for each operation',
      'executors.RestoreBackup.env.GOOD: Invalid input: expected string, received number',
      'executors.default.delayMs: Too small: expected number to be >=0',
      'executors.default.failMachines.0: Too small: expected string to have >=1 characters',
      'executors.default: Unrecognized key: "command"',
    ]);
  });

  it('names YAML errors with their line, and a duplicated key', () => {
    expect(problems('executors: [\n')).toEqual([expect.stringMatching(/at line 2, column 1$/)]);
    expect(problems('concurrency: 1\nconcurrency: 2\n')).toEqual([expect.stringMatching(/^Map keys must be unique at line 2/)]);
  });
});

describe('loadConfig', () => {
  it('reads a file, and names a file it cannot read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mma-config-'));
    try {
      const file = join(dir, 'mma.yaml');
      await writeFile(file, 'concurrency: 2\n');
      expect((await loadConfig(file)).concurrency).toBe(2);
      const missing = join(dir, 'missing.yaml');
      await expect(loadConfig(missing)).rejects.toThrow(`Invalid configuration ${missing}:\n  - cannot read it: ENOENT`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
