/**
 * SQL of desired state and deploys (DESIGN §12; `README.md` beside this file):
 * the software snapshot the resolver reads, writing resolved desired versions to
 * machines, the deploy controller's candidates, and version state rows.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { CONFIG_COMPONENTS, type TComponentVersion } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accountSettings, softwareBranches, softwareBuilds, softwareCommits, versionStates } from '../../db/schema.js';
import type { CatalogueCommit, SoftwareSnapshot } from './resolve.js';
import type { OperationMachine } from '../operations/queue.js';

/** Channel of the NOTIFY sent when machines' desired versions changed (delivered on commit); wakes the deploy controller. */
export const DESIRED_CHANGED_CHANNEL = 'fleet_desired_changed';

/** First key of the advisory lock that serialises deploy passes (second key 0). */
export const DEPLOY_LOCK_NAMESPACE = 0x64706c79; // 'dply'

/**
 * The software catalogue as the resolver needs it. Reads every commit and build
 * (the catalogue holds hundreds to a few thousand): see {@link SoftwareSnapshot}.
 */
export async function loadSoftwareSnapshot(db: DbOrTx): Promise<SoftwareSnapshot> {
  const commits = await db
    .select({
      id: softwareCommits.id,
      software: softwareCommits.software,
      branchName: softwareBranches.name,
      shortHash: softwareCommits.shortHash,
      fullHash: softwareCommits.fullHash,
      timestamp: softwareCommits.timestamp,
    })
    .from(softwareCommits)
    .innerJoin(softwareBranches, eq(softwareBranches.id, softwareCommits.branchId))
    // Oldest first, so that a later (newer) commit replaces an older one in the maps below.
    .orderBy(softwareCommits.timestamp, softwareCommits.id);
  const builds = await db
    .select({ software: softwareBuilds.software, url: softwareBuilds.url, hash: softwareBuilds.hash })
    .from(softwareBuilds)
    .orderBy(softwareBuilds.lastModified, softwareBuilds.id);
  const snapshot: SoftwareSnapshot = { heads: new Map(), newest: new Map(), byHash: new Map(), builds: new Map(), newestBuild: new Map() };
  for (const row of commits) {
    const commit: CatalogueCommit = {
      software: row.software,
      branchName: row.branchName,
      shortHash: row.shortHash,
      fullHash: row.fullHash,
      timestamp: row.timestamp.toISOString(),
    };
    snapshot.heads.set(`${row.software}/${row.branchName}`, commit);
    snapshot.newest.set(row.software, commit);
    snapshot.byHash.set(`${row.software}/${row.shortHash}`, commit);
    snapshot.byHash.set(`${row.software}/${row.fullHash}`, commit);
  }
  for (const build of builds) {
    const commit = snapshot.byHash.get(`${build.software}/${build.hash}`);
    if (!commit) continue;
    snapshot.builds.set(`${build.software}/${build.url}`, commit);
    snapshot.newestBuild.set(build.software, commit);
  }
  return snapshot;
}

/** `max(id)` of commits and builds: changes when the catalogue gains one (the controller's cue to resolve again). */
export async function selectCatalogueStamp(db: DbOrTx): Promise<string> {
  const { rows } = await db.execute<{ stamp: string }>(sql`
    select (select coalesce(max(id), 0) from software_commits)::text || ':' || (select coalesce(max(id), 0) from software_builds)::text as stamp`);
  return rows[0]?.stamp ?? '0:0';
}

/** A machine's version overrides (`machines.version_overrides`): software → mode and version (the updater's machine mode). */
export type VersionOverrides = Record<string, { mode: string; version: string }>;

/** An account's machineConfig with the overrides of its overridden live machines (machine id → overrides). */
export interface AccountConfigRow {
  accountId: number;
  machineConfig: Record<string, unknown>;
  overrides: Record<string, VersionOverrides>;
}

/**
 * machineConfig of accounts with machines, each with its live machines' version
 * overrides: of `accountIds`, or a page of all after `afterId` (keyset, `limit` rows).
 */
export async function selectMachineConfigs(db: DbOrTx, q: { accountIds: number[] } | { afterId: number; limit: number }): Promise<AccountConfigRow[]> {
  const overrides = sql<Record<string, VersionOverrides> | null>`(
    select jsonb_object_agg(m.id, m.version_overrides) from machines m
    where m.account_id = account_settings.account_id and m.deleted_at is null and m.version_overrides <> '{}'::jsonb)`;
  const query = db.select({ accountId: accountSettings.accountId, machineConfig: accountSettings.machineConfig, overrides }).from(accountSettings);
  const rows =
    'accountIds' in q
      ? q.accountIds.length === 0
        ? []
        : await query.where(sql`${accountSettings.accountId} = any(${sql.param(q.accountIds)}::int[])`)
      : await query
          .where(
            sql`${accountSettings.accountId} > ${q.afterId} and exists (select 1 from machines m where m.account_id = ${accountSettings.accountId} and m.deleted_at is null)`,
          )
          .orderBy(accountSettings.accountId)
          .limit(q.limit);
  return rows.map((r) => ({ ...r, overrides: r.overrides ?? {} }));
}

export interface DesiredRow {
  /** The account whose machines without overrides take the row (unused with `machineIds`). */
  accountId: number;
  /**
   * Set: the desired versions of these machines alone (overridden machines, or
   * the machines an updater machine-mode update names), whatever their overrides.
   * Absent: of every live machine of the account without overrides.
   */
  machineIds?: number[];
  /** With `machineIds`: the machines' new version overrides, written in the same statement (the updater's machine mode). */
  overrides?: VersionOverrides;
  /** `component → {branch}|{shortHash}`. */
  versions: Record<string, string>;
  /** Components whose version the machine keeps (could not be resolved). */
  unresolved: string[];
}

/**
 * Writes the resolved desired versions: an account row to the account's live
 * machines without overrides, a row with `machineIds` to those live machines
 * (and its `overrides` to them, in the same statement: one row write per machine);
 * only where they change, with `activityId` as their cause (null when the cause
 * is unknown, such as a catalogue change found by a full resolution: no cause
 * rather than a stale one); NOTIFYs {@link DESIRED_CHANGED_CHANNEL} when one
 * changed. Answers the changed machines.
 */
export async function updateDesiredVersions(
  tx: DbOrTx,
  rows: DesiredRow[],
  activityId: number | null = null,
): Promise<{ id: number; accountId: number }[]> {
  if (rows.length === 0) return [];
  const { rows: written } = await tx.execute<{ id: number; account_id: number; changed: boolean }>(sql`
    with v as materialized (
      select (e->>'accountId')::int as account_id, e->'machineIds' as machine_ids,
             e->'versions' as versions, e->'unresolved' as unresolved, e->'overrides' as overrides
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) e
    ), per_machine as materialized (
      select i.value::int as machine_id, v.versions, v.unresolved, v.overrides
      from v cross join lateral jsonb_array_elements_text(v.machine_ids) i
      where v.machine_ids is not null
    ), target as (
      select m.id, m.current_versions, m.desired_versions as was, v.versions, v.unresolved, null::jsonb as overrides
      from machines m join v on v.machine_ids is null and v.account_id = m.account_id
      where m.deleted_at is null and m.version_overrides = '{}'::jsonb
      union all
      select m.id, m.current_versions, m.desired_versions, p.versions, p.unresolved, p.overrides
      from per_machine p join machines m on m.id = p.machine_id
      where m.deleted_at is null
    ), next as (
      select t.id, t.was, t.overrides,
             t.versions || coalesce(
               (select jsonb_object_agg(k.key, k.value) from jsonb_each(t.current_versions) k where t.unresolved ? k.key),
               '{}'::jsonb) as desired
      from target t
    )
    update machines m
    set desired_versions = next.desired,
        desired_activity_id = case when next.was is distinct from next.desired then ${activityId}::int else m.desired_activity_id end,
        version_overrides = coalesce(next.overrides, m.version_overrides)
    from next
    where next.id = m.id
      -- Implied by the join, but it lets the planner read the batch's machines by
      -- index: estimating jsonb_array_elements at 10,000 rows, it otherwise hashed
      -- every machine of the fleet (a full resolution of the scale fleet: 20
      -- batches of 380 ms, 70 ms with this line).
      and (m.account_id = any(array(select account_id from v)) or m.id = any(array(select machine_id from per_machine)))
      and (m.desired_versions is distinct from next.desired or (next.overrides is not null and m.version_overrides is distinct from next.overrides))
    returning m.id, m.account_id, next.was is distinct from next.desired as changed`);
  const changed = written.filter((r) => r.changed);
  if (changed.length > 0) await tx.execute(sql`select pg_notify(${DESIRED_CHANGED_CHANNEL}, ${String(changed.length)})`);
  return changed.map((r) => ({ id: r.id, accountId: r.account_id }));
}

/**
 * Accounts whose machineConfig follows `branch` for `software` with mode Latest:
 * `{branch}|latest`, a blank branch (`|latest`, any branch), or no version when
 * `branch` is master (the default); and accounts with a live machine whose
 * version override follows it so (the updater's machine mode).
 */
export async function selectFollowers(db: DbOrTx, software: string, branch: string, defaultBranch: string): Promise<{ id: number; name: string; classId: number }[]> {
  const versions = [`${branch}|latest`, '|latest', ...(branch === defaultBranch ? [''] : [])];
  const { rows } = await db.execute<{ id: number; name: string; class_id: number }>(sql`
    select a.id, a.name, a.class_id from account_settings s join accounts a on a.id = s.account_id
    where a.deleted_at is null
      and ((s.machine_config->>${`${software}VersionMode`} = 'Latest'
            and coalesce(s.machine_config->>${`${software}Version`}, '') = any(${sql.param(versions)}::text[]))
        or exists (
          select 1 from machines m
          where m.account_id = a.id and m.deleted_at is null and m.version_overrides <> '{}'::jsonb
            and m.version_overrides->${software}->>'mode' = 'Latest'
            and coalesce(m.version_overrides->${software}->>'version', '') = any(${sql.param(versions)}::text[])))
    order by a.id`);
  return rows.map((r) => ({ id: r.id, name: r.name, classId: r.class_id }));
}

/** A machine the deploy controller queues an UpdateSoftware for: the machine as queueing needs it, and what to deploy. */
export interface DeployCandidate extends OperationMachine {
  desiredVersions: Record<string, string>;
  desiredActivityId: number | null;
  bundleVersion: string | null;
  /**
   * When the desired-version change was a rollout's wave: whether its deploy
   * waits for the wave's approval (`required`) or the rollout's approval covers
   * it (`granted`); undefined otherwise (`engine/rollouts/approvals.ts`).
   */
  approval?: 'required' | 'granted';
}

/**
 * Up to `limit` machines to deploy (DESIGN §12): obsolete, live (not deleted,
 * not being terminated), managed, with no unfinished UpdateSoftware, whose
 * latest UpdateSoftware was not cancelled for the same versions and the same
 * cause (a cancel stands until the desired versions change, or another change
 * such as a later rollout asks for them again), and whose desired versions are
 * not a Halted or Aborted rollout's wave (nothing deploys, nor is retried,
 * after a rollout gave up: issue 25). By id.
 */
export async function selectDeployCandidates(tx: DbOrTx, limit: number): Promise<DeployCandidate[]> {
  const { rows } = await tx.execute<{
    id: number;
    account_id: number;
    class_id: number;
    account_class_id: number;
    operation_mode: number;
    fail_counter: number;
    desired_versions: Record<string, string>;
    desired_activity_id: number | null;
    bundle_version: string | null;
    approval: 'required' | 'granted' | null;
  }>(sql`
    select m.id, m.account_id, m.class_id, a.class_id as account_class_id, m.operation_mode, m.fail_counter,
           m.desired_versions, m.desired_activity_id, a.bundle_version,
           -- The wave of a rollout that changed the desired versions, and whether its approval is asked or given
           -- (engine/rollouts/approvals.ts waveNeedsApproval; an approved wave, or a later wave of firstWaveOnly).
           (select case
                     when d.decision = 'Approved' or (r.plan->>'approval' = 'firstWaveOnly' and rt.wave > 0) then 'granted'
                     when r.plan->>'approval' = 'perWave' or (r.plan->>'approval' = 'firstWaveOnly' and rt.wave = 0) then 'required'
                   end
            from rollout_targets rt join rollouts r on r.id = rt.rollout_id
            left join rollout_wave_decisions d on d.rollout_id = rt.rollout_id and d.wave = rt.wave
            where rt.activity_id = m.desired_activity_id limit 1) as approval
    from machines m join accounts a on a.id = m.account_id
    where m.obsolete and m.deleted_at is null and m.managed and not m.terminate
      and not exists (
        select 1 from operations o
        where o.machine_id = m.id and o.finished_at is null and o.type_name = 'UpdateSoftware')
      and not exists (
        select 1 from (
          select o.decision, o.params, o.activity_id from operations o
          where o.machine_id = m.id and o.type_name = 'UpdateSoftware' order by o.id desc limit 1) last
        where last.decision = 'CANCEL' and last.params->'versions' = m.desired_versions
          and last.activity_id is not distinct from m.desired_activity_id)
      -- A halted or aborted rollout's versions are not deployed any more, not even retried (issue 25).
      and not exists (
        select 1 from rollout_targets rt join rollouts r on r.id = rt.rollout_id
        where rt.activity_id = m.desired_activity_id and r.status in ('Halted', 'Aborted'))
    order by m.id
    limit ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    classId: r.class_id,
    accountClassId: r.account_class_id,
    operationMode: r.operation_mode,
    failCounter: r.fail_counter,
    desiredVersions: r.desired_versions,
    desiredActivityId: r.desired_activity_id,
    bundleVersion: r.bundle_version,
    ...(r.approval ? { approval: r.approval } : {}),
  }));
}

/** The commits of `refs` (`software → {branch}|{shortHash}`), by software; refs not in the catalogue are left out. */
export async function selectCommitsOf(db: DbOrTx, refs: Record<string, string>): Promise<Map<string, TComponentVersion>> {
  const pairs = Object.entries(refs).map(([software, ref]) => ({ software, shortHash: ref.slice(ref.lastIndexOf('|') + 1) }));
  if (pairs.length === 0) return new Map();
  const { rows } = await db.execute<{ software: string; branch_name: string; short_hash: string; timestamp: Date | string }>(sql`
    select c.software, b.name as branch_name, c.short_hash, c.timestamp
    from software_commits c join software_branches b on b.id = c.branch_id
    join jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) p(software text, "shortHash" text)
      on p.software = c.software and p."shortHash" = c.short_hash`);
  return new Map(
    rows.map((r) => [r.software, { branchName: r.branch_name, shortHash: r.short_hash, timestamp: new Date(r.timestamp).toISOString() }]),
  );
}

/** Every component of a version state: its commit from `versions`, null when absent. */
export function stateComponents(versions: Map<string, TComponentVersion>): Record<string, TComponentVersion | null> {
  return Object.fromEntries(CONFIG_COMPONENTS.map((key) => [key, versions.get(key) ?? null]));
}

/** Whether operation `operationId` already wrote its version state. */
export async function hasStateOf(db: DbOrTx, operationId: number): Promise<boolean> {
  const [row] = await db.select({ id: versionStates.id }).from(versionStates).where(eq(versionStates.operationId, operationId)).limit(1);
  return row !== undefined;
}

/** The machine's current version state row, if any. */
export async function selectCurrentState(db: DbOrTx, machineId: number) {
  const [row] = await db
    .select()
    .from(versionStates)
    .where(and(eq(versionStates.machineId, machineId), eq(versionStates.current, true)))
    .orderBy(desc(versionStates.id))
    .limit(1);
  return row;
}
