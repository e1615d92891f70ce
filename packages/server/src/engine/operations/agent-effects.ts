/**
 * Effects of the operation types the agent itself owns (DESIGN §12; the effect
 * contract is in `effects.ts`): CreateJumpStartAmi, ReinstallSampleData,
 * Populate, SmokeTest and ApplyConfig. Backup, RestoreBackup and
 * PublishSampleData (object store) and UpdateSoftware and TestLatestCode
 * (desired state) are other modules'; a type without an effect runs the
 * simulated agent's generic steps.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DbOrTx } from '../../db/client.js';
import type { OperationEffect, OperationEffectContext, OperationEffects } from './effects.js';
import { OperationFailure } from './effects.js';
import { GENERIC_STEPS, runSteps } from './simulated-steps.js';
import { insertJumpStartImage, selectCurrentVersions, selectIrmnVersionId } from './agent.repository.js';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * A CreateJumpStartAmi's params (`name`, `description`, `irmnVersion`)
 * checked, with the IRMN version's id; {@link OperationFailure} without a name
 * or with an unknown IRMN version. Shared with a remote MMA's image call
 * (`modules/mma-protocol`).
 */
export async function jumpStartParams(db: DbOrTx, params: Record<string, unknown>) {
  const name = str(params.name);
  const description = str(params.description);
  const irmnVersion = str(params.irmnVersion);
  if (!name) throw new OperationFailure('The operation names no image');
  const irmnVersionId = await selectIrmnVersionId(db, irmnVersion);
  if (irmnVersionId === undefined) throw new OperationFailure(`Unknown IRMN version '${irmnVersion}'`);
  return { name, description, irmnVersion, irmnVersionId };
}

/** The image request of a CreateJumpStartAmi: its client token (`operation-<id>`) makes a retried call get the same image. */
export const jumpStartImageRequest = (operationId: number, cloudId: string, p: { name: string; description: string }) => ({
  cloudId,
  name: p.name,
  description: p.description,
  clientToken: `operation-${operationId}`,
});

/**
 * CreateJumpStartAmi (spec 2 §2.3 Create Jump-start AMI), params
 * `{ name, description, irmnVersion }`: images the machine's instance under the
 * client token `operation-<id>` (a retry gets the same image), waits until the
 * image is available, then registers a jump-start SaaS image (official false,
 * active) in the instance's region with the machine's current versions, which
 * the account image picker then lists. The registration is fenced and skipped
 * when the image already has a row, so a retry never makes a second.
 */
const createJumpStartAmi: OperationEffect = async (ctx) => {
  const { name, description, irmnVersion, irmnVersionId } = await jumpStartParams(ctx.db, ctx.operation.params);
  if (!ctx.machine.cloudId) throw new OperationFailure(`Machine ${ctx.machine.name} has no cloud instance`);
  await runSteps(ctx, GENERIC_STEPS.CreateJumpStartAmi(ctx.machine, ctx.operation.params));

  let image = await ctx.cloud.createImage(jumpStartImageRequest(ctx.operation.id, ctx.machine.cloudId, { name, description }));
  await ctx.output(`Creating image ${image.imageId} of instance ${ctx.machine.cloudId}`);
  await ctx.deployerLog(`ec2: CreateImage ${image.imageId} (${image.status})`);
  if (ctx.operation.params.imageId !== image.imageId) await ctx.checkpoint({ imageId: image.imageId });
  while (image.status === 'pending') {
    await sleep(ctx.cloud.pollIntervalMs, undefined, { signal: ctx.signal });
    const described = await ctx.cloud.describeImage(image.imageId);
    if (!described) throw new OperationFailure(`Image ${image.imageId} no longer exists`);
    image = described;
  }
  if (image.status !== 'available') throw new OperationFailure(`Image ${image.imageId} is ${image.status}`);
  await ctx.deployerLog(`ec2: image ${image.imageId} available in ${image.region}`);

  const versions = await selectCurrentVersions(ctx.db, ctx.machine.id);
  const inserted = await ctx.fenced((tx) =>
    insertJumpStartImage(tx, { name, description, region: image.region, irmnVersionId, cloudImage: image.imageId, versions }),
  );
  await ctx.output(`${inserted ? 'Registered' : 'Found'} jump-start image ${name} (${image.imageId}, ${image.region}, IRMN ${irmnVersion})`);
};

/**
 * ReinstallSampleData (spec 2 §2.3): the API already set the machine's
 * sampleData and sampleDataFile; the agent stops the services, reloads the
 * site master from that sample data and starts them again.
 */
const reinstallSampleData: OperationEffect = async (ctx) => {
  const { machine } = ctx;
  if (!machine.isSiteMaster) await ctx.output('This machine has no site master: nothing to reinstall');
  else await runSteps(ctx, GENERIC_STEPS.ReinstallSampleData(machine, ctx.operation.params));
  const what = machine.sampleData === 'None' ? 'no sample data' : `sample data ${machine.sampleDataFile ?? machine.sampleData}`;
  await ctx.output(`The site master now holds ${what}`);
};

/**
 * Populate (spec 2 §2.3 Force Populate), params `{ populateLauncher,
 * populateSiteMaster, altString }`: populates each ticked database with the
 * reference data, under the alternative string when one is given.
 */
const populate: OperationEffect = async (ctx) => {
  const p = ctx.operation.params;
  const targets = [p.populateLauncher === true && 'launcher', p.populateSiteMaster === true && 'site master'].filter((t): t is string => !!t);
  if (targets.length === 0) throw new OperationFailure('Nothing to populate: neither Launcher nor SiteMaster was ticked');
  const alt = str(p.altString);
  await runSteps(ctx, [GENERIC_STEPS.Populate(ctx.machine, p)[0]!]);
  for (const target of targets) {
    await ctx.output(`Populating the ${target}${alt ? ` with alt string ${alt}` : ''}`);
    await ctx.deployerLog(`populate ${target}: reference data 2024.3${alt ? `, alt string '${alt}'` : ''}`);
    await ctx.work(15_000);
    await ctx.deployerLog(`populate ${target}: 1,284 records written`);
  }
};

/** The smoke test suite: name and nominal milliseconds. */
const SMOKE_TESTS: [string, number][] = [
  ['launcher: sign-in page answers', 1_500],
  ['launcher: sign in with the service account', 3_000],
  ['launcher: list sites', 2_000],
  ['site master: health endpoint', 1_000],
  ['site master: open a project', 4_000],
  ['site master: library import queue is idle', 2_000],
  ['worker: message queue reachable', 1_000],
  ['audit changelog: last write under 5 minutes ago', 1_000],
];

/** SmokeTest: runs the suite against the launcher and site master; every test passes in the simulation. */
const smokeTest: OperationEffect = async (ctx) => {
  await runSteps(ctx, GENERIC_STEPS.SmokeTest(ctx.machine, ctx.operation.params).slice(0, 1));
  await ctx.output(`Running ${SMOKE_TESTS.length} smoke tests`);
  for (const [name, ms] of SMOKE_TESTS) {
    await ctx.work(ms);
    await ctx.deployerLog(`smoke: PASS ${name} (${ms} ms)`);
  }
  await ctx.output(`${SMOKE_TESTS.length} passed, 0 failed`);
};

/** ApplyConfig: the generic steps (write the configurations, restart, health check). */
const applyConfig: OperationEffect = (ctx: OperationEffectContext) => runSteps(ctx, GENERIC_STEPS.ApplyConfig(ctx.machine, ctx.operation.params));

/** The agent's own effects; merged with the other modules' tables where the agent is built. */
export const AGENT_EFFECTS: OperationEffects = {
  CreateJumpStartAmi: createJumpStartAmi,
  ReinstallSampleData: reinstallSampleData,
  Populate: populate,
  SmokeTest: smokeTest,
  ApplyConfig: applyConfig,
};
