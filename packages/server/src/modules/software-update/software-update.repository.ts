/**
 * SQL behind the validation of an instance settings push (commit facts,
 * the account's machines and library file versions) and behind the software
 * update of many targets (`software-update.apply.ts`): the targets locked in id
 * order, the overrides and configs written, one statement each (set-based).
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { libraryFiles, machines, softwareCommits } from '../../db/schema.js';

/** Commits whose short or full hash is one of `hashes`, with what validation needs. */
export async function selectCommitFacts(db: DbOrTx, hashes: string[]) {
  if (hashes.length === 0) return [];
  return db
    .select({
      software: softwareCommits.software,
      shortHash: softwareCommits.shortHash,
      fullHash: softwareCommits.fullHash,
      timestamp: softwareCommits.timestamp,
      isBreaking: softwareCommits.isBreaking,
      breakingMsg: softwareCommits.breakingMsg,
    })
    .from(softwareCommits)
    .where(or(inArray(softwareCommits.shortHash, hashes), inArray(softwareCommits.fullHash, hashes)));
}

/** Live machines of the account not being terminated, with the flags that hold back an update. */
export const selectAccountMachines = (db: DbOrTx, accountId: number) =>
  db
    .select({
      name: machines.name,
      managed: machines.managed,
      manualMaintenance: machines.manualMaintenance,
      needsAdmin: machines.needsAdmin,
      stop: machines.stop,
      idle: machines.idle,
    })
    .from(machines)
    .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt), eq(machines.terminate, false)))
    .orderBy(machines.name);

export const selectLibraryFiles = (db: DbOrTx, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select({ id: libraryFiles.id, name: libraryFiles.name, version: libraryFiles.version }).from(libraryFiles).where(inArray(libraryFiles.id, ids));

const ids = (values: number[]) => sql`${sql.param(values)}::int[]`;
const hidden = (classIds: number[]) => sql`${sql.param(classIds)}::int[]`;

/** A machine targeted by a software update, with its account (its config is read once per account: {@link selectAccountConfigs}). */
export interface UpdateMachineRow {
  id: number;
  name: string;
  accountId: number;
  accountName: string;
  accountClassId: number;
  terminate: boolean;
  versionOverrides: Record<string, { mode: string; version: string }>;
  currentVersions: Record<string, string>;
}

/**
 * The live machines among `ids` of live accounts, neither of a class in
 * `hiddenClassIds`, by id; with `lock` the machine rows are locked `for update`
 * (in id order). Ids not answered are unknown or hidden.
 */
export async function selectUpdateMachines(db: DbOrTx, q: { ids: number[]; hiddenClassIds: number[]; lock: boolean }): Promise<UpdateMachineRow[]> {
  const { rows } = await db.execute<{
    id: number;
    name: string;
    account_id: number;
    account_name: string;
    account_class_id: number;
    terminate: boolean;
    version_overrides: Record<string, { mode: string; version: string }>;
    current_versions: Record<string, string>;
  }>(sql`
    select m.id, m.name, m.account_id, a.name as account_name, a.class_id as account_class_id, m.terminate,
           m.version_overrides, m.current_versions
    from machines m
    join accounts a on a.id = m.account_id
    where m.id = any(${ids(q.ids)}) and m.deleted_at is null and a.deleted_at is null
      and m.class_id <> all(${hidden(q.hiddenClassIds)}) and a.class_id <> all(${hidden(q.hiddenClassIds)})
    order by m.id
    ${q.lock ? sql`for update of m` : sql``}`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    accountId: r.account_id,
    accountName: r.account_name,
    accountClassId: r.account_class_id,
    terminate: r.terminate,
    versionOverrides: r.version_overrides ?? {},
    currentVersions: r.current_versions ?? {},
  }));
}

/** Each account's stored machineConfig (`{}` without settings), image and bundle version, by account id. */
export async function selectAccountConfigs(
  db: DbOrTx,
  accountIds: number[],
): Promise<Map<number, { machineConfig: Record<string, unknown>; vmImageName: string | null; bundleVersion: string | null }>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await db.execute<{ id: number; machine_config: Record<string, unknown> | null; vm_image_name: string | null; bundle_version: string | null }>(sql`
    select a.id, s.machine_config, a.vm_image_name, a.bundle_version
    from accounts a left join account_settings s on s.account_id = a.id
    where a.id = any(${ids(accountIds)})`);
  return new Map(rows.map((r) => [r.id, { machineConfig: r.machine_config ?? {}, vmImageName: r.vm_image_name, bundleVersion: r.bundle_version }]));
}

/** An account targeted by a software update, with its instance settings and how many live machines override `softwares`. */
export interface UpdateAccountRow {
  id: number;
  name: string;
  classId: number;
  machineConfig: Record<string, unknown>;
  instanceVersion: number;
  vmImageName: string | null;
  bundleVersion: string | null;
  overridden: number;
}

/**
 * The live accounts among `ids` not of a class in `hiddenClassIds`, by id; with
 * `lock` the account rows are locked `for update` (in id order: an instance
 * settings push locks the account row first too). Ids not answered are unknown or hidden.
 */
export async function selectUpdateAccounts(
  db: DbOrTx,
  q: { ids: number[]; hiddenClassIds: number[]; softwares: string[]; lock: boolean },
): Promise<UpdateAccountRow[]> {
  const { rows } = await db.execute<{
    id: number;
    name: string;
    class_id: number;
    machine_config: Record<string, unknown> | null;
    instance_version: number | null;
    vm_image_name: string | null;
    bundle_version: string | null;
    overridden: number;
  }>(sql`
    select a.id, a.name, a.class_id, s.machine_config, s.instance_version, a.vm_image_name, a.bundle_version,
           (select count(*)::int from machines m
            where m.account_id = a.id and m.deleted_at is null and m.version_overrides <> '{}'::jsonb
              and m.version_overrides ?| ${sql.param(q.softwares)}::text[]) as overridden
    from accounts a
    left join account_settings s on s.account_id = a.id
    where a.id = any(${ids(q.ids)}) and a.deleted_at is null and a.class_id <> all(${hidden(q.hiddenClassIds)})
    order by a.id
    ${q.lock ? sql`for update of a` : sql``}`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    classId: r.class_id,
    machineConfig: r.machine_config ?? {},
    instanceVersion: r.instance_version ?? 1,
    vmImageName: r.vm_image_name,
    bundleVersion: r.bundle_version,
    overridden: r.overridden,
  }));
}

/**
 * The overrides of `softwares` on the live machines of `accountIds` (what
 * {@link clearVersionOverrides} would clear), by account, then machine id (as
 * text: the JSON key), then software. One statement.
 */
export async function selectVersionOverrides(
  db: DbOrTx,
  q: { accountIds: number[]; softwares: string[] },
): Promise<Map<number, Record<string, Record<string, { mode: string; version: string }>>>> {
  const out = new Map<number, Record<string, Record<string, { mode: string; version: string }>>>();
  if (q.accountIds.length === 0 || q.softwares.length === 0) return out;
  const { rows } = await db.execute<{ id: number; account_id: number; overrides: Record<string, { mode: string; version: string }> }>(sql`
    select m.id, m.account_id,
      (select jsonb_object_agg(e.key, e.value) from jsonb_each(m.version_overrides) e where e.key = any(${sql.param(q.softwares)}::text[])) as overrides
    from machines m
    where m.account_id = any(${ids(q.accountIds)}) and m.deleted_at is null and m.version_overrides ?| ${sql.param(q.softwares)}::text[]`);
  for (const r of rows) {
    const byMachine = out.get(r.account_id) ?? {};
    byMachine[String(r.id)] = r.overrides;
    out.set(r.account_id, byMachine);
  }
  return out;
}

/** Merges each machine's `overrides` into its version overrides (a rollback putting back what an account update cleared). One statement. */
export async function mergeVersionOverrides(tx: DbOrTx, rows: { machineId: number; overrides: Record<string, { mode: string; version: string }> }[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    update machines m set version_overrides = m.version_overrides || v.overrides
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) v("machineId" int, overrides jsonb)
    where m.id = v."machineId" and m.deleted_at is null`);
}

/** Removes the overrides of `softwares` from the live machines of `accountIds` (one statement). */
export async function clearVersionOverrides(tx: DbOrTx, q: { accountIds: number[]; softwares: string[] }): Promise<void> {
  if (q.accountIds.length === 0 || q.softwares.length === 0) return;
  await tx.execute(sql`
    update machines set version_overrides = version_overrides - ${sql.param(q.softwares)}::text[]
    where account_id = any(${ids(q.accountIds)}) and deleted_at is null and version_overrides <> '{}'::jsonb
      and version_overrides ?| ${sql.param(q.softwares)}::text[]`);
}

/**
 * Writes each account's machineConfig and instance settings version (creating a
 * missing settings row), and the image and bundle version on the account row as
 * the instance settings push does: one statement per table.
 */
export async function updateAccountConfigs(tx: DbOrTx, rows: { accountId: number; machineConfig: Record<string, unknown>; instanceVersion: number }[]): Promise<void> {
  if (rows.length === 0) return;
  const values = JSON.stringify(rows);
  await tx.execute(sql`
    insert into account_settings (account_id, machine_config, instance_version)
    select v."accountId", v."machineConfig", v."instanceVersion"
    from jsonb_to_recordset(${values}::jsonb) v("accountId" int, "machineConfig" jsonb, "instanceVersion" int)
    order by v."accountId"
    on conflict (account_id) do update set machine_config = excluded.machine_config, instance_version = excluded.instance_version`);
  await tx.execute(sql`
    update accounts a set vm_image_name = v."machineConfig"->>'vmImageName', bundle_version = v."machineConfig"->>'bundleVersion'
    from jsonb_to_recordset(${values}::jsonb) v("accountId" int, "machineConfig" jsonb)
    where a.id = v."accountId"`);
}
