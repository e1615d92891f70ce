/**
 * The effects of UpdateSoftware and TestLatestCode (DESIGN §12; the effect contract
 * in `../operations/effects.ts`; invariants in `README.md`).
 *
 * **UpdateSoftware** installs `params.versions` (`component → {branch}|{shortHash}`,
 * as the deploy controller queues it; an operation queued by hand without them
 * takes the machine's desired versions when it starts and checkpoints them). Per
 * component it writes deployer-log lines (download, stop, install, start, health
 * check) and waits simulated time; a component that leaves the target is
 * uninstalled. Then, in one transaction: the previous current version state
 * becomes historical, a new current one is written (every component's commit or
 * null, the operation's id), `machines.current_versions` becomes the target (so
 * the generated `obsolete` follows) and `bundle_version` the params' bundle
 * version when given.
 *
 * **TestLatestCode** deploys the newest commit of `params.branch` (default master)
 * of each component the machine runs or should run (those without a commit on
 * the branch stay as they are), writes the version state the same way, then runs
 * the smoke test (output lines). The deploy controller later brings the machine
 * back to its desired versions, since those are the account's.
 *
 * Idempotent per operation: the state write happens once (checked under a lock
 * of the operation row, and the version state's unique `operation_id`); a retry
 * after it skips the deploy. A target missing from the catalogue fails the
 * operation. The write is fenced: an operation that is no longer RUNNING (reset
 * meanwhile) writes nothing.
 */
import { eq, sql } from 'drizzle-orm';
import { componentLabel, DEFAULT_LATEST_BRANCH, isVersionMap, orderedComponents, type TComponentVersion } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { machines, versionStates } from '../../db/schema.js';
import { OperationFailure, type OperationEffect, type OperationEffectContext, type OperationEffects } from '../operations/effects.js';
import { hasStateOf, loadSoftwareSnapshot, selectCommitsOf, stateComponents } from './desired-state.repository.js';
import { branchHeads, versionRef } from './resolve.js';
import { componentDeploySteps } from '@fleet/contracts/simulated-steps';
import { runSteps } from '../operations/simulated-steps.js';

/** Nominal simulated duration of each smoke check, ms (scaled by the agent's SIM_AGENT_DELAY_MS). */
const SMOKE_CHECK_MS = 5_000;

const SMOKE_CHECKS = [
  'launcher sign-in page answers 200',
  'site master API /health reports all services up',
  'web client loads the site tree',
  'report scheduler accepts a test job',
  'audit changelog records a test event',
] as const;

async function machineVersions(db: DbOrTx, machineId: number) {
  const [row] = await db
    .select({ current: machines.currentVersions, desired: machines.desiredVersions })
    .from(machines)
    .where(eq(machines.id, machineId));
  if (!row) throw new OperationFailure(`Machine ${machineId} no longer exists`);
  return row;
}

/**
 * Deploys `target` over what the machine runs (deployer log and simulated time),
 * then writes the version state (see the module docstring). Answers false when a
 * previous attempt had already written it (nothing done).
 */
async function deploy(ctx: OperationEffectContext, target: Record<string, string>, bundleVersion: string | null): Promise<boolean> {
  const { db, operation, machine } = ctx;
  if (await hasStateOf(db, operation.id)) {
    await ctx.output('The versions were installed by an earlier attempt; nothing to deploy');
    return false;
  }
  const commits = await selectCommitsOf(db, target);
  const missing = Object.keys(target).filter((k) => !commits.has(k));
  if (missing.length > 0) throw new OperationFailure(`Unknown commit for ${missing.map((k) => `${componentLabel(k)} (${target[k]})`).join(', ')}`);

  const { current } = await machineVersions(db, machine.id);
  // The component steps the reference MMA's simulated executor plays too (`@fleet/contracts/simulated-steps`).
  const plan = componentDeploySteps(machine.name, target, current);
  for (const step of plan.steps) {
    if (ctx.signal.aborted) throw new OperationFailure('Stopped before the deployment finished');
    await runSteps(ctx, [step]);
  }

  const written = await writeVersionState(db, { operationId: operation.id, machineId: machine.id, target, commits, bundleVersion });
  if (written === 'ended') throw new OperationFailure('The operation was ended while deploying; the version state was not written');
  await ctx.output(written ? `Version state recorded: ${plan.changed} changed, ${plan.unchanged} unchanged` : 'The version state was already recorded');
  return written;
}

/**
 * The version state write of a deploy, in one transaction under the operation
 * row's lock: the previous current state becomes historical, a new current one
 * is written (every component's commit or null, the operation's id), the
 * machine's current versions become `target` (and its bundle version
 * `bundleVersion` when given). Answers true when written, false when this
 * operation had written it already, 'ended' when the operation is no longer
 * RUNNING (nothing written).
 */
async function writeVersionState(
  db: DbOrTx,
  o: { operationId: number; machineId: number; target: Record<string, string>; commits: Map<string, TComponentVersion>; bundleVersion: string | null },
): Promise<boolean | 'ended'> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ status: string | null; finished_at: Date | null }>(
      sql`select status, finished_at from operations where id = ${o.operationId} for update`,
    );
    const row = rows[0];
    if (!row || row.status !== 'RUNNING' || row.finished_at !== null) return 'ended' as const;
    if (await hasStateOf(tx, o.operationId)) return false;
    await tx.update(versionStates).set({ current: false }).where(sql`${versionStates.machineId} = ${o.machineId} and ${versionStates.current}`);
    await tx.insert(versionStates).values({ machineId: o.machineId, current: true, components: stateComponents(o.commits), operationId: o.operationId });
    await tx
      .update(machines)
      .set({ currentVersions: o.target, ...(o.bundleVersion ? { bundleVersion: o.bundleVersion } : {}) })
      .where(eq(machines.id, o.machineId));
    return true;
  });
}

/**
 * What a remote MMA's UpdateSoftware or TestLatestCode SUCCESS means (issue 27
 * point 2): the operation's `params.versions` (fixed at its claim) are installed; records
 * them as the simulated deploy does ({@link writeVersionState}). Answers
 * `{ error }` (the operation then ends FAILURE with it) when the params name
 * no versions or a commit the catalogue does not know, or the operation
 * ended meanwhile.
 */
export async function recordDeployedState(
  db: DbOrTx,
  o: { operationId: number; machineId: number; params: Record<string, unknown> },
): Promise<{ written?: boolean; error?: string }> {
  const target = o.params.versions;
  if (!isVersionMap(target)) return { error: 'The operation names no versions to record' };
  const commits = await selectCommitsOf(db, target);
  const missing = Object.keys(target).filter((k) => !commits.has(k));
  if (missing.length > 0) return { error: `Unknown commit for ${missing.map((k) => `${componentLabel(k)} (${target[k]})`).join(', ')}` };
  const bundle = o.params.bundleVersion;
  const written = await writeVersionState(db, { ...o, target, commits, bundleVersion: typeof bundle === 'string' && bundle !== '' ? bundle : null });
  return written === 'ended' ? { error: 'The operation ended before its versions were recorded' } : { written };
}

/**
 * What a remote MMA's report of installed versions means (issue 27 point 2,
 * reports): `installed` (`component → {branch}|{hash}`, every component the
 * machine runs) is what runs there. When it differs from the machine's current
 * versions, in one transaction under the machine row's lock: the previous
 * current version state becomes historical, a new current one is written
 * (without an operation), and `machines.current_versions` becomes `installed`
 * (so the deploy controller sees any difference from the desired versions).
 * Answers `{ unknown }` (nothing written) naming the components whose commit
 * the catalogue does not know, else `{ written }`.
 */
export async function recordReportedVersions(
  db: DbOrTx,
  o: { machineId: number; installed: Record<string, string> },
): Promise<{ written: boolean; unknown?: string[] }> {
  const commits = await selectCommitsOf(db, o.installed);
  const unknown = Object.keys(o.installed).filter((k) => !commits.has(k));
  if (unknown.length > 0) return { written: false, unknown };
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ current: Record<string, string> }>(
      sql`select current_versions as current from machines where id = ${o.machineId} for update`,
    );
    const current = rows[0]?.current ?? {};
    const keys = new Set([...Object.keys(current), ...Object.keys(o.installed)]);
    if ([...keys].every((k) => current[k] === o.installed[k])) return { written: false };
    await tx.update(versionStates).set({ current: false }).where(sql`${versionStates.machineId} = ${o.machineId} and ${versionStates.current}`);
    await tx.insert(versionStates).values({ machineId: o.machineId, current: true, components: stateComponents(commits), operationId: null });
    await tx.update(machines).set({ currentVersions: o.installed }).where(eq(machines.id, o.machineId));
    return { written: true };
  });
}

/** UpdateSoftware: see the module docstring. */
export const updateSoftware: OperationEffect = async (ctx) => {
  const given = ctx.operation.params.versions;
  let target: Record<string, string>;
  if (isVersionMap(given)) target = given;
  else {
    target = (await machineVersions(ctx.db, ctx.machine.id)).desired;
    await ctx.checkpoint({ versions: target });
    await ctx.output('No versions given: deploying the desired versions of the machine');
  }
  const bundle = ctx.operation.params.bundleVersion;
  await deploy(ctx, target, typeof bundle === 'string' && bundle !== '' ? bundle : null);
};

/** The branch a TestLatestCode's params name (default master). */
export const latestCodeBranch = (params: Record<string, unknown>): string =>
  typeof params.branch === 'string' && params.branch !== '' ? params.branch : DEFAULT_LATEST_BRANCH;

/**
 * What a TestLatestCode on machine `machineId` deploys: the newest commit of
 * `branch` of each component the machine runs or should run, the others as
 * installed (`component → {branch}|{hash}`), with a line for the output that
 * says so. Fixed once per operation (the simulated effect's first attempt, a
 * remote MMA's claim), so that a retry deploys the same commits even if the
 * branch moved on.
 */
export async function latestCodeTarget(db: DbOrTx, machineId: number, branch: string): Promise<{ versions: Record<string, string>; summary: string }> {
  const { current, desired } = await machineVersions(db, machineId);
  const components = orderedComponents([...Object.keys(current), ...Object.keys(desired)]);
  const heads: Record<string, TComponentVersion> = branchHeads(await loadSoftwareSnapshot(db), branch, components);
  const without = components.filter((k) => !heads[k]);
  return {
    versions: { ...current, ...Object.fromEntries(Object.entries(heads).map(([k, c]) => [k, versionRef(c)])) },
    summary: `Newest commits of ${branch}: ${Object.keys(heads).length} component(s)${without.length > 0 ? `; no commit of ${without.join(', ')} on ${branch}, left as installed` : ''}`,
  };
}

/** TestLatestCode: see the module docstring. */
export const testLatestCode: OperationEffect = async (ctx) => {
  const branch = latestCodeBranch(ctx.operation.params);
  const given = ctx.operation.params.versions;
  let target: Record<string, string>;
  if (isVersionMap(given)) target = given;
  else {
    const latest = await latestCodeTarget(ctx.db, ctx.machine.id, branch);
    target = latest.versions;
    await ctx.checkpoint({ versions: target });
    await ctx.output(latest.summary);
  }
  await deploy(ctx, target, null);
  await ctx.output(`Smoke test against ${ctx.machine.name} (${branch})`);
  for (const check of SMOKE_CHECKS) {
    if (ctx.signal.aborted) throw new OperationFailure('Stopped during the smoke test');
    await ctx.work(SMOKE_CHECK_MS);
    await ctx.output(`  passed: ${check}`);
  }
  await ctx.output(`Smoke test passed: ${SMOKE_CHECKS.length} of ${SMOKE_CHECKS.length} checks`);
};

/** The deploy effects for the agent's effect table (`OperationEffects`). */
export function createDeployEffects(): OperationEffects {
  return { UpdateSoftware: updateSoftware, TestLatestCode: testLatestCode };
}
