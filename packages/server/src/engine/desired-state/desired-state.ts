/**
 * Keeping machines' desired versions equal to their accounts' machineConfig
 * resolved (DESIGN §12 Desired state; resolver in `resolve.ts`, invariants in
 * `README.md`). Three callers:
 *
 * - the instance settings push ({@link applyDesiredState} for its account, inside
 *   the push's transaction, with the push's audit activity as the cause);
 * - a new commit ({@link recordCommit}: the commit and the desired versions of
 *   the accounts that follow its branch with Latest, one transaction, audited as
 *   `MMA` action `FollowLatestCommit`);
 * - the deploy controller, level-driven ({@link resolveAllDesiredStates} when the
 *   catalogue changed or now and then), which repairs whatever a lost call missed.
 *
 * Every account's live machines get the same desired versions, except machines
 * with version overrides (the updater's machine mode, DESIGN §12, §15): they
 * resolve their account's config with their overrides in place, in each of the
 * three callers (and {@link writeMachineDesiredStates} for the updater itself).
 */
import { DEFAULT_LATEST_BRANCH } from '@fleet/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { softwareBranches, softwareCommits } from '../../db/schema.js';
import { insertActivity } from '../../modules/audit/audit.repository.js';
import {
  loadSoftwareSnapshot,
  selectFollowers,
  selectMachineConfigs,
  updateDesiredVersions,
  type AccountConfigRow,
  type DesiredRow,
  type VersionOverrides,
} from './desired-state.repository.js';
import { resolveMachineConfig, withOverrides, type SoftwareSnapshot } from './resolve.js';

/** Accounts resolved per statement by {@link resolveAllDesiredStates}. */
const RESOLVE_BATCH = 500;

/** One row per account (its machines without overrides) and one per overridden machine. */
function desiredRows(snapshot: SoftwareSnapshot, configs: AccountConfigRow[]): DesiredRow[] {
  return configs.flatMap(({ accountId, machineConfig, overrides }) => {
    const resolved = resolveMachineConfig(snapshot, machineConfig);
    const machines = Object.entries(overrides).map(([machineId, o]) => {
      const own = resolveMachineConfig(snapshot, withOverrides(machineConfig, o));
      return { accountId, machineIds: [Number(machineId)], versions: own.versions, unresolved: own.unresolved };
    });
    return [{ accountId, versions: resolved.versions, unresolved: resolved.unresolved }, ...machines];
  });
}

/**
 * Resolves the machineConfig of `accountIds` and writes the desired versions of
 * their live machines where they change (inside `tx`, with the caller's change).
 * `activityId` is recorded as the cause of the change (none: null). Answers the
 * machines whose desired versions changed; the controller hears of them on commit.
 */
export async function applyDesiredState(
  tx: DbOrTx,
  opts: { accountIds: number[]; activityId?: number | null; snapshot?: SoftwareSnapshot },
): Promise<{ id: number; accountId: number }[]> {
  if (opts.accountIds.length === 0) return [];
  const snapshot = opts.snapshot ?? (await loadSoftwareSnapshot(tx));
  const configs = await selectMachineConfigs(tx, { accountIds: opts.accountIds });
  return updateDesiredVersions(tx, desiredRows(snapshot, configs), opts.activityId);
}

/** A machine of an updater machine-mode update: its account's machineConfig and its (new) overrides. */
export interface MachineConfigInput {
  machineId: number;
  accountId: number;
  machineConfig: Record<string, unknown>;
  overrides: VersionOverrides;
}

/**
 * Writes the version overrides of `machines` (the updater's machine mode) and
 * their desired versions (each its account's machineConfig with its overrides
 * resolved), one statement inside `tx`, with `activityId` as the cause of the
 * desired-version change. Machines with the same overrides and resolution are
 * sent as one group. Answers the machines whose desired versions changed.
 */
export async function writeMachineDesiredStates(
  tx: DbOrTx,
  opts: { machines: MachineConfigInput[]; activityId?: number | null; snapshot?: SoftwareSnapshot },
): Promise<{ id: number; accountId: number }[]> {
  if (opts.machines.length === 0) return [];
  const snapshot = opts.snapshot ?? (await loadSoftwareSnapshot(tx));
  const groups = new Map<string, DesiredRow & { machineIds: number[] }>();
  const resolvedBy = new Map<string, Record<string, string | string[]>>();
  for (const m of opts.machines) {
    const overrides = JSON.stringify(m.overrides);
    const key = `${m.accountId}:${overrides}`;
    let resolved = resolvedBy.get(key);
    if (!resolved) {
      const r = resolveMachineConfig(snapshot, withOverrides(m.machineConfig, m.overrides));
      resolved = { ...r.versions, '': r.unresolved };
      resolvedBy.set(key, resolved);
    }
    const groupKey = `${JSON.stringify(resolved)}:${overrides}`;
    let group = groups.get(groupKey);
    if (!group) {
      const { '': unresolved, ...versions } = resolved;
      group = { accountId: m.accountId, versions: versions as Record<string, string>, unresolved: unresolved as string[], overrides: m.overrides, machineIds: [] };
      groups.set(groupKey, group);
    }
    group.machineIds.push(m.machineId);
  }
  return updateDesiredVersions(tx, [...groups.values()], opts.activityId);
}

/**
 * Resolves every account that has machines, {@link RESOLVE_BATCH} accounts per
 * statement (each its own short transaction, so a large fleet never holds
 * long locks). Answers how many machines changed.
 */
export async function resolveAllDesiredStates(db: DbOrTx): Promise<number> {
  const snapshot = await loadSoftwareSnapshot(db);
  let afterId = 0;
  let changed = 0;
  for (;;) {
    const configs = await selectMachineConfigs(db, { afterId, limit: RESOLVE_BATCH });
    if (configs.length === 0) return changed;
    changed += (await updateDesiredVersions(db, desiredRows(snapshot, configs))).length;
    afterId = configs[configs.length - 1]!.accountId;
  }
}

export interface NewCommit {
  software: string;
  branch: string;
  shortHash: string;
  fullHash: string;
  author: string;
  message: string;
  timestamp: Date;
}

/**
 * Records a new commit of `software` on `branch` (a repository push, as the
 * catalogue learns of it) and moves the desired versions of the machines whose
 * account follows that branch with Latest, in `tx`: they become obsolete until
 * deployed. With followers, an audit activity by `MMA` (`FollowLatestCommit`,
 * the followers as its accounts) is their UpdateSoftware's cause. Throws when the
 * branch does not exist. Answers the commit id and the machines that changed.
 */
export async function recordCommit(tx: DbOrTx, commit: NewCommit): Promise<{ commitId: number; changed: { id: number; accountId: number }[] }> {
  const [branch] = await tx.select({ id: softwareBranches.id }).from(softwareBranches).where(eq(softwareBranches.name, commit.branch));
  if (!branch) throw new Error(`Branch ${commit.branch} does not exist`);
  const [row] = await tx
    .insert(softwareCommits)
    .values({
      software: commit.software,
      branchId: branch.id,
      shortHash: commit.shortHash,
      fullHash: commit.fullHash,
      author: commit.author,
      message: commit.message,
      timestamp: commit.timestamp,
    })
    .returning({ id: softwareCommits.id });
  const followers = await selectFollowers(tx, commit.software, commit.branch, DEFAULT_LATEST_BRANCH);
  if (followers.length === 0) return { commitId: row!.id, changed: [] };
  const activityId = await insertActivity(tx, {
    action: 'FollowLatestCommit',
    user: 'MMA',
    accounts: followers,
    params: { software: commit.software, branch: commit.branch, shortHash: commit.shortHash },
  });
  const changed = await applyDesiredState(tx, { accountIds: followers.map((f) => f.id), activityId });
  return { commitId: row!.id, changed };
}
