/**
 * The software update of many targets (spec 3 §2.8, §3 Software update payload,
 * §4 Version modes, §7; DESIGN §12 Desired state, §15 Bulk changes): what an
 * update would change ({@link planSoftwareUpdate}) and applying it inside the
 * caller's transaction ({@link applySoftwareUpdate}). The routes
 * (`POST /software-update/update-machines`, `/update-accounts`) and the rollout
 * engine (one wave at a time) both call these two.
 *
 * - **Account mode** (`kind` 'accounts'): each software whose mode is not Skip
 *   sets `{software}VersionMode` and `{software}Version` of the account's
 *   machineConfig; library modes not Skip set the main library mode and files, the
 *   account library mode and file. The resulting config must pass the instance
 *   settings push's rules (`checkMachineConfig`); add-on accounts (class 200) are
 *   refused. The instance settings version is bumped, `vmImageName` and
 *   `bundleVersion` written as the push writes them, the per-machine overrides of
 *   the softwares it sets are cleared on the accounts' machines (so account and
 *   machines agree again), and the machines' desired versions resolved.
 * - **Machine mode** (`kind` 'machines'): each software whose mode is not Skip
 *   sets the machine's override (`machines.version_overrides`, software →
 *   `{mode, version}`, stored as the push stores versions); Skip leaves the
 *   machine's override of that software as it is. Library modes other than Skip
 *   are refused by the route (400: libraries are per account). Machines being
 *   terminated are refused, and so is a version that does not resolve now.
 *
 * Rules need only the principal's username, permissions and groups (a rollout
 * resuming after a restart passes a stored principal). Unknown ids and ids hidden
 * from the principal (Customer Production without CustomerProductionAccess)
 * throw 404 naming each (`machines.3`, `accounts.0`: the request field and index).
 * SQL is set-based: one statement per kind of read or write, rows locked in id order.
 */
import {
  CLASS_ADD_ON,
  type TAuditChange,
  type TFieldError,
  type TMachineConfig,
  type TSoftwareUpdateConfig,
  type TTargetChange,
  type TTargetResult,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { HttpProblem } from '../../lib/problem.js';
import { readMachineConfig } from '../account-settings/account-rules.js';
import { applyDesiredState, writeMachineDesiredStates } from '../../engine/desired-state/desired-state.js';
import { loadSoftwareSnapshot, type VersionOverrides } from '../../engine/desired-state/desired-state.repository.js';
import type { SoftwareSnapshot } from '../../engine/desired-state/resolve.js';
import * as repo from './software-update.repository.js';
import {
  accountVersion,
  librarySet,
  memoisedCheck,
  missingTargets,
  resolvedRef,
  softwaresSet,
  unresolvedReason,
  versionText,
  withUpdate,
  type UpdateKind,
  type UpdateRestore,
} from './software-update.rules.js';

export { softwaresSet, versionText, type UpdateKind, type UpdateRestore } from './software-update.rules.js';

/** What both functions take: who asks, the kind of targets, the update and the target ids (at most MAX_UPDATE_TARGETS). */
export interface SoftwareUpdateTargets {
  principal: Pick<Principal, 'username' | 'permissions' | 'groups'>;
  kind: UpdateKind;
  config: TSoftwareUpdateConfig;
  targetIds: number[];
}

/** One target as planned: its result, the account(s) it touches (for the audit) and what to write. */
export interface PlannedTarget {
  result: TTargetResult;
  account: { id: number; name: string; classId: number };
  /** Field-level changes as the audit records them (entityName `Machine 17` / `Account 4`). */
  auditChanges: TAuditChange[];
  /** Machine mode: the machine's next overrides; account mode: the account's next machineConfig. */
  next: Record<string, unknown>;
  /** Machine mode: the account's stored machineConfig (what the machine resolves with its overrides). */
  accountConfig?: Record<string, unknown>;
  /** What the update changes, as it was before (a rollout keeps it for its rollback). */
  previous: UpdateRestore;
}

async function planMachines(tx: DbOrTx, o: SoftwareUpdateTargets, snapshot: SoftwareSnapshot, lock: boolean): Promise<PlannedTarget[]> {
  const rows = await repo.selectUpdateMachines(tx, { ids: o.targetIds, hiddenClassIds: hiddenClassIds(o.principal as Principal), lock });
  const missing = missingTargets('machines', o.targetIds, new Set(rows.map((r) => r.id)));
  if (missing) throw missing;
  const keys = softwaresSet(o.config);
  const configs = await repo.selectAccountConfigs(tx, [...new Set(rows.map((m) => m.accountId))]);
  // What each software is set to does not depend on the machine: normalised and resolved once.
  const defaults = readMachineConfig({}, {});
  const normalised = withUpdate(defaults, o.config);
  const wanted = new Map(
    keys.map((key) => {
      const [mode, version] = [normalised[`${key}VersionMode`], normalised[`${key}Version`]];
      return [key, { mode, version, resolved: resolvedRef(snapshot, key, mode, version) }] as const;
    }),
  );
  return rows.map((m) => {
    const raw = configs.get(m.accountId)?.machineConfig ?? {};
    const next: Record<string, { mode: string; version: string }> = { ...m.versionOverrides };
    const changes: TTargetChange[] = [];
    const reasons: string[] = m.terminate ? ['The machine is being terminated'] : [];
    for (const key of keys) {
      const w = wanted.get(key)!;
      if (w.resolved === undefined) reasons.push(unresolvedReason(key, w.mode, w.version));
      const stored = m.versionOverrides[key];
      next[key] = { mode: w.mode, version: w.version };
      if (stored && stored.mode === w.mode && stored.version === w.version) continue;
      const was = stored ?? accountVersion(raw, key);
      changes.push({
        field: `${key}Version`,
        oldValue: versionText(was.mode, was.version),
        newValue: versionText(w.mode, w.version),
        resolved: w.resolved ?? null,
        running: m.currentVersions[key] ?? null,
      });
    }
    const name = `Machine ${m.id}`;
    return {
      result: { id: m.id, name: m.name, changes, refused: reasons.length > 0 ? reasons.join('; ') : null },
      account: { id: m.accountId, name: m.accountName, classId: m.accountClassId },
      auditChanges: changes.map((c) => ({ entityName: name, propertyName: c.field, oldValue: c.oldValue, newValue: c.newValue })),
      next,
      accountConfig: raw,
      previous: { overrides: Object.fromEntries(keys.map((key) => [key, m.versionOverrides[key] ?? null])) },
    };
  });
}

/** The change of an account-mode target that clears its machines' overrides of the softwares set. */
export const OVERRIDES_FIELD = 'versionOverrides';

async function planAccounts(tx: DbOrTx, o: SoftwareUpdateTargets, snapshot: SoftwareSnapshot, lock: boolean): Promise<PlannedTarget[]> {
  const keys = softwaresSet(o.config);
  const rows = await repo.selectUpdateAccounts(tx, { ids: o.targetIds, hiddenClassIds: hiddenClassIds(o.principal as Principal), softwares: keys, lock });
  const missing = missingTargets('accounts', o.targetIds, new Set(rows.map((r) => r.id)));
  if (missing) throw missing;
  const check = memoisedCheck(tx);
  const previousFields = [...keys.flatMap((key) => [`${key}VersionMode`, `${key}Version`]), ...librarySet(o.config)];
  // Accounts with the same stored config read and update alike: once per distinct config.
  const read = new Map<string, { before: TMachineConfig; after: TMachineConfig }>();
  const configsOf = (a: repo.UpdateAccountRow) => {
    const key = JSON.stringify([a.machineConfig, a.vmImageName, a.bundleVersion]);
    let c = read.get(key);
    if (!c) {
      const before = readMachineConfig(a.machineConfig, { autoStopTime: null, vmImageName: a.vmImageName ?? '', bundleVersion: a.bundleVersion });
      c = { before, after: withUpdate(before, o.config) };
      read.set(key, c);
    }
    return { before: c.before, after: { ...c.after } };
  };
  const planned: PlannedTarget[] = [];
  for (const a of rows) {
    const account = { id: a.id, name: a.name, classId: a.classId };
    if (a.classId === CLASS_ADD_ON) {
      planned.push({ result: { id: a.id, name: a.name, changes: [], refused: 'Add-on accounts have no instance settings' }, account, auditChanges: [], next: {}, previous: {} });
      continue;
    }
    const { before, after } = configsOf(a);
    const { errors, region } = await check(after, a.machineConfig);
    // The push fills a blank region from the image (checkMachineConfig's answer).
    if (errors.length === 0) after.region = region;
    const changes: TTargetChange[] = [];
    for (const key of keys) {
      const [mode, version] = [after[`${key}VersionMode`], after[`${key}Version`]];
      if (mode === before[`${key}VersionMode`] && version === before[`${key}Version`]) continue;
      changes.push({
        field: `${key}Version`,
        oldValue: versionText(before[`${key}VersionMode`], before[`${key}Version`]),
        newValue: versionText(mode, version),
        resolved: resolvedRef(snapshot, key, mode, version) ?? null,
      });
    }
    if (a.overridden > 0) changes.push({ field: OVERRIDES_FIELD, oldValue: `${a.overridden} machine(s) override these versions`, newValue: 'Cleared' });
    for (const field of ['mainLibraryMode', 'mainLibraryFiles', 'accountLibraryMode', 'accountLibraryFiles'] as const) {
      if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes.push({ field, oldValue: before[field], newValue: after[field] });
    }
    const name = `Account ${a.id}`;
    planned.push({
      result: { id: a.id, name: a.name, changes, refused: errors.length > 0 ? errors.map((e) => e.errorMessage).join('; ') : null },
      account,
      auditChanges: changes.map((c) => ({ entityName: name, propertyName: c.field, oldValue: c.oldValue, newValue: c.newValue })),
      next: { ...after, instanceVersion: a.instanceVersion + 1 },
      previous: { machineConfig: Object.fromEntries(previousFields.map((f) => [f, a.machineConfig[f] ?? null])) },
    });
  }
  // The overrides the update clears, kept for a rollback (read only for accounts that have some).
  const overridden = rows.filter((a) => a.overridden > 0).map((a) => a.id);
  const cleared = await repo.selectVersionOverrides(tx, { accountIds: overridden, softwares: keys });
  for (const p of planned) {
    const machineOverrides = cleared.get(p.result.id);
    if (machineOverrides) p.previous.machineOverrides = machineOverrides;
  }
  return planned;
}

/**
 * Per target what the update would change, with the audit's view of it (no
 * writes); refused targets carry the rule in `result.refused`. With `lock` the
 * target rows are locked `for update` in id order (inside a transaction).
 * Throws 404 (HttpProblem) for unknown or hidden ids.
 */
export async function planTargets(tx: DbOrTx, o: SoftwareUpdateTargets & { lock?: boolean; snapshot?: SoftwareSnapshot }): Promise<PlannedTarget[]> {
  const snapshot = o.snapshot ?? (await loadSoftwareSnapshot(tx));
  return o.kind === 'machines' ? planMachines(tx, o, snapshot, o.lock ?? false) : planAccounts(tx, o, snapshot, o.lock ?? false);
}

/**
 * The audit changes of the first `max` targets that change, in the request's
 * order (`targetIds`), with how many change (`changedTargets`) and how many are
 * listed (`listedTargets`): the activity of a request that starts a rollout,
 * bounded for large rollouts (AUDIT_LISTED_TARGETS; each wave's activity lists
 * its own).
 */
export function listedChanges(
  planned: PlannedTarget[],
  targetIds: number[],
  max: number,
): { changes: TAuditChange[]; changedTargets: number; listedTargets: number } {
  const position = new Map(targetIds.map((id, i) => [id, i]));
  const changed = planned.filter((p) => p.auditChanges.length > 0).sort((a, b) => position.get(a.result.id)! - position.get(b.result.id)!);
  const listed = changed.slice(0, max);
  return { changes: listed.flatMap((p) => p.auditChanges), changedTargets: changed.length, listedTargets: listed.length };
}

/** Per target what the update would change (no writes); refused targets carry the reason. Throws 404 (HttpProblem) for unknown/hidden ids. */
export async function planSoftwareUpdate(tx: DbOrTx, o: SoftwareUpdateTargets): Promise<TTargetResult[]> {
  return (await planTargets(tx, o)).map((p) => p.result);
}

/** 422 naming each refused target (`machines.3`: request field and index) and its rule. */
export function refusedTargets(kind: UpdateKind, targetIds: number[], results: TTargetResult[]): HttpProblem | null {
  const index = new Map(targetIds.map((id, i) => [id, i]));
  const errors: TFieldError[] = results
    .filter((r) => r.refused !== null)
    .map((r) => ({ propertyName: `${kind}.${index.get(r.id) ?? 0}`, errorMessage: `${r.name}: ${r.refused}`, attemptedValue: r.id }));
  if (errors.length === 0) return null;
  return new HttpProblem(422, 'Unprocessable Content', `${errors.length} target(s) refused; nothing was changed`, errors);
}

/**
 * Writes planned targets (none refused) inside `tx`: machine mode the overrides
 * and the machines' desired versions; account mode the configs, versions, image
 * and bundle, cleared overrides and desired versions. `activityId` is the cause.
 */
export async function writePlanned(
  tx: DbOrTx,
  o: { kind: UpdateKind; config: TSoftwareUpdateConfig; planned: PlannedTarget[]; activityId: number; snapshot?: SoftwareSnapshot },
): Promise<{ machineIds: number[] }> {
  const snapshot = o.snapshot ?? (await loadSoftwareSnapshot(tx));
  if (o.kind === 'machines') {
    const changed = o.planned.filter((p) => p.result.changes.length > 0);
    const machines = await writeMachineDesiredStates(tx, {
      machines: changed.map((p) => ({
        machineId: p.result.id,
        accountId: p.account.id,
        machineConfig: p.accountConfig ?? {},
        overrides: p.next as VersionOverrides,
      })),
      activityId: o.activityId,
      snapshot,
    });
    return { machineIds: machines.map((m) => m.id) };
  }
  await repo.updateAccountConfigs(
    tx,
    o.planned.filter((p) => p.result.changes.some((c) => c.field !== OVERRIDES_FIELD)).map((p) => {
      const { instanceVersion, ...machineConfig } = p.next;
      return { accountId: p.result.id, machineConfig, instanceVersion: instanceVersion as number };
    }),
  );
  await repo.clearVersionOverrides(tx, { accountIds: o.planned.map((p) => p.result.id), softwares: softwaresSet(o.config) });
  const machines = await applyDesiredState(tx, { accountIds: o.planned.map((p) => p.result.id), activityId: o.activityId, snapshot });
  return { machineIds: machines.map((m) => m.id) };
}

/**
 * Applies the update to these targets inside `tx` (the caller's transaction),
 * with `activityId` as the cause of the desired-version change. Throws 404 for
 * unknown or hidden ids and 422 naming refused targets. Answers the machines
 * whose desired versions changed, and per target what it changed as it was
 * before ({@link UpdateRestore}: what a rollback puts back).
 */
export async function applySoftwareUpdate(
  tx: DbOrTx,
  o: SoftwareUpdateTargets & { activityId: number },
): Promise<{ machineIds: number[]; previous: Map<number, UpdateRestore> }> {
  const snapshot = await loadSoftwareSnapshot(tx);
  const planned = await planTargets(tx, { ...o, lock: true, snapshot });
  const refused = refusedTargets(o.kind, o.targetIds, planned.map((p) => p.result));
  if (refused) throw refused;
  const { machineIds } = await writePlanned(tx, { kind: o.kind, config: o.config, planned, activityId: o.activityId, snapshot });
  return { machineIds, previous: new Map(planned.map((p) => [p.result.id, p.previous])) };
}
