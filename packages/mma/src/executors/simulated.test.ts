/**
 * The simulated executor (`simulated.ts`): the shared step scripts written
 * line by line, the delay (SIM_AGENT_DELAY_MS over `delayMs`), failMachines,
 * a timeout and an abort.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GENERIC_STEPS } from '@fleet/contracts/simulated-steps';
import { claimed } from '../testing.js';
import { createSimulatedExecutor, simulatedDelayMs } from './simulated.js';
import type { ExecutorContext } from './types.js';

function context(over: Partial<ExecutorContext> = {}) {
  const output: string[] = [];
  const deployerLog: string[] = [];
  const ctx: ExecutorContext = {
    operation: claimed(),
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    output: (l) => output.push(l),
    deployerLog: (l) => deployerLog.push(l),
    ...over,
  };
  return { ctx, output, deployerLog };
}

describe('simulated executor', () => {
  it("writes the type's steps (the server's simulated agent's own), each output line and its deployer log lines", async () => {
    const { ctx, output, deployerLog } = context();
    const result = await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 0 }, env: {} })(ctx);
    expect(result).toEqual({ status: 'SUCCESS' });
    const steps = GENERIC_STEPS.SmokeTest(ctx.operation.machine, {});
    expect(output).toEqual(steps.map((s) => s.output));
    expect(deployerLog).toEqual(steps.flatMap((s) => s.log));
    expect(output[0]).toBe('Connecting to the deployer on acme-prod-1');
  });

  it("deploys only the components whose installed version differs from the target, as the worker's deploy effect does", async () => {
    const machine = { ...claimed().machine, installedVersions: { launcher: 'master|abc1234', siteMaster: 'release/5|0000001', worker: 'master|0000002' } };
    const params = { versions: { launcher: 'master|abc1234', siteMaster: 'release/5|def5678', reporting: 'master|0000003' } };
    const { ctx, output, deployerLog } = context({ operation: claimed({ typeName: 'UpdateSoftware', machine, params }) });
    expect(await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 0 }, env: {} })(ctx)).toEqual({ status: 'SUCCESS' });
    expect(output).toEqual([
      'Connecting to the deployer on acme-prod-1',
      'Deploying to acme-prod-1: 3 component(s) to change, 1 unchanged',
      'Site Master updated: release/5 / 0000001 → release/5 / def5678',
      'Reporting installed: master / 0000003',
      'worker removed',
      'Services restarted',
    ]);
    expect(deployerLog).toContain('siteMaster: installed release/5|def5678 (was release/5|0000001)');
    // 19 nominal seconds a changed component, 4 a removed one, 4 to restart: what the deploy effect takes.
    expect(GENERIC_STEPS.UpdateSoftware(machine, params).reduce((ms, step) => ms + step.ms, 0)).toBe(2_000 + 19_000 * 2 + 4_000 + 4_000);
  });

  it('plays the generic deploy when the claim carries no installed versions (a server before them)', () => {
    const steps = GENERIC_STEPS.UpdateSoftware(claimed().machine, { versions: { launcher: 'master|abc1234' } });
    expect(steps.map((step) => step.output)).toContain('Downloading artifacts (desired versions)');
  });

  it("writes a Backup's gzip'd dump of each software into its folder, as a script would", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-backup-'));
    try {
      const { ctx } = context({ operation: claimed({ typeName: 'Backup' }), files: { dir, software: ['launcher'], env: {} } });
      expect(await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 0 }, env: {} })(ctx)).toEqual({ status: 'SUCCESS' });
      expect(gunzipSync(await readFile(join(dir, 'launcher.sql.gz'))).toString()).toBe('-- simulated launcher dump of acme-prod-1, operation 41\n');
      expect(await readdir(dir)).toEqual(['launcher.sql.gz']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("writes a PublishSampleData's zip where the run uploads it from", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-publish-'));
    try {
      const { ctx } = context({ operation: claimed({ typeName: 'PublishSampleData', params: { fileName: 'demo.zip' } }), files: { dir, software: [], env: {} } });
      expect(await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 0 }, env: {} })(ctx)).toEqual({ status: 'SUCCESS' });
      expect((await readFile(join(dir, 'sample-data.zip'))).toString()).toBe('PK simulated sample data of acme-prod-1, operation 41\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails the machines of failMachines after half their steps', async () => {
    const { ctx, output, deployerLog } = context({ operation: claimed({ typeName: 'ApplyConfig' }) });
    const result = await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 0, failMachines: ['acme-prod-1'] }, env: {} })(ctx);
    expect(result).toEqual({ status: 'FAILURE', message: 'Simulated failure' });
    expect(output.length).toBe(Math.floor(GENERIC_STEPS.ApplyConfig(ctx.operation.machine, {}).length / 2));
    expect(deployerLog.at(-1)).toBe('ERROR Simulated failure');
  });

  it('waits nominal ms × delayMs / 1000, SIM_AGENT_DELAY_MS winning over delayMs', async () => {
    expect(simulatedDelayMs({ kind: 'simulated', delayMs: 50 }, {})).toBe(50);
    expect(simulatedDelayMs({ kind: 'simulated', delayMs: 50 }, { SIM_AGENT_DELAY_MS: '3' })).toBe(3);
    expect(simulatedDelayMs({ kind: 'simulated' }, {})).toBe(200);
    expect(() => simulatedDelayMs({ kind: 'simulated' }, { SIM_AGENT_DELAY_MS: 'fast' })).toThrow(/SIM_AGENT_DELAY_MS must be a number/);
    // SmokeTest: 2 000 + 3 000 nominal ms → 100 ms at 20 ms per nominal second.
    const { ctx } = context();
    const started = Date.now();
    await createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 1_000 }, env: { SIM_AGENT_DELAY_MS: '20' } })(ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails past its time, and stops at once when aborted', async () => {
    const slow = createSimulatedExecutor({ config: { kind: 'simulated', delayMs: 1_000 }, env: {} });
    const { ctx } = context({ timeoutMs: 300 });
    expect(await slow(ctx)).toEqual({ status: 'FAILURE', message: 'Timed out after 0.3 s' });
    const abort = new AbortController();
    const started = Date.now();
    const running = slow(context({ signal: abort.signal }).ctx);
    setTimeout(() => abort.abort(), 50);
    expect(await running).toEqual({ status: 'FAILURE', message: 'Stopped' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
