/**
 * Putting back the versions a software update changed (issue 25 point 3: a
 * rollout's rollback, `engine/rollouts/rollback.ts`): per target, the
 * {@link UpdateRestore} its wave kept. The same checks and writes as the update
 * (`software-update.apply.ts`), with each target's own versions instead of one
 * update for all.
 *
 * - **Machine targets**: each software's override is set back as it was, or
 *   removed when the machine had none (it follows its account again). A version
 *   that no longer resolves refuses the target.
 * - **Account targets**: the machineConfig fields the update set are written back
 *   (a field not stored before is removed), the result must pass the instance
 *   settings push's rules as the update's did, the instance settings version is
 *   bumped, and the overrides the update cleared on the account's machines are
 *   set again.
 *
 * Unknown and hidden ids throw 404 naming each; refused targets 422 (the rollout
 * engine then halts the rollback), as for the update.
 */
import { CLASS_ADD_ON, CONFIG_COMPONENTS, type TAuditChange, type TTargetChange, type TTargetResult } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { readMachineConfig } from '../account-settings/account-rules.js';
import { applyDesiredState } from '../../engine/desired-state/desired-state.js';
import { loadSoftwareSnapshot } from '../../engine/desired-state/desired-state.repository.js';
import type { SoftwareSnapshot } from '../../engine/desired-state/resolve.js';
import * as repo from './software-update.repository.js';
import { refusedTargets, writePlanned, type PlannedTarget } from './software-update.apply.js';
import {
  accountVersion,
  memoisedCheck,
  missingTargets,
  resolvedRef,
  unresolvedReason,
  versionText,
  type UpdateKind,
  type UpdateRestore,
  type VersionOverride,
} from './software-update.rules.js';

/** What both functions take: who asks, the kind of targets, and per target id what to put back. */
export interface RestoreTargets {
  principal: Pick<Principal, 'username' | 'permissions' | 'groups'>;
  kind: UpdateKind;
  /** Target ids in the request's order, each with its versions before the update. */
  targets: { id: number; restore: UpdateRestore }[];
}

const sameVersion = (a: VersionOverride | undefined | null, b: VersionOverride | undefined | null) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.mode === b.mode && a.version === b.version);

function audited(kind: UpdateKind, id: number, changes: TTargetChange[]): TAuditChange[] {
  const name = `${kind === 'machines' ? 'Machine' : 'Account'} ${id}`;
  return changes.map((c) => ({ entityName: name, propertyName: c.field, oldValue: c.oldValue, newValue: c.newValue }));
}

async function planMachines(tx: DbOrTx, o: RestoreTargets, snapshot: SoftwareSnapshot, lock: boolean): Promise<PlannedTarget[]> {
  const ids = o.targets.map((t) => t.id);
  const restores = new Map(o.targets.map((t) => [t.id, t.restore]));
  const rows = await repo.selectUpdateMachines(tx, { ids, hiddenClassIds: hiddenClassIds(o.principal as Principal), lock });
  const missing = missingTargets('machines', ids, new Set(rows.map((r) => r.id)));
  if (missing) throw missing;
  const configs = await repo.selectAccountConfigs(tx, [...new Set(rows.map((m) => m.accountId))]);
  return rows.map((m) => {
    const raw = configs.get(m.accountId)?.machineConfig ?? {};
    const next: Record<string, VersionOverride> = { ...m.versionOverrides };
    const changes: TTargetChange[] = [];
    const reasons: string[] = m.terminate ? ['The machine is being terminated'] : [];
    const overrides = restores.get(m.id)?.overrides ?? {};
    for (const key of CONFIG_COMPONENTS.filter((k) => k in overrides)) {
      const back = overrides[key] ?? null;
      const stored = m.versionOverrides[key];
      if (back) next[key] = back;
      else delete next[key];
      if (sameVersion(stored, back)) continue;
      const [was, will] = [stored ?? accountVersion(raw, key), back ?? accountVersion(raw, key)];
      const resolved = resolvedRef(snapshot, key, will.mode, will.version);
      if (resolved === undefined) reasons.push(unresolvedReason(key, will.mode, will.version));
      changes.push({
        field: `${key}Version`,
        oldValue: versionText(was.mode, was.version),
        newValue: back ? versionText(will.mode, will.version) : `${versionText(will.mode, will.version)} (the account's)`,
        resolved: resolved ?? null,
        running: m.currentVersions[key] ?? null,
      });
    }
    return {
      result: { id: m.id, name: m.name, changes, refused: reasons.length > 0 ? reasons.join('; ') : null },
      account: { id: m.accountId, name: m.accountName, classId: m.accountClassId },
      auditChanges: audited('machines', m.id, changes),
      next,
      accountConfig: raw,
      previous: { overrides: Object.fromEntries(Object.keys(overrides).map((key) => [key, m.versionOverrides[key] ?? null])) },
    };
  });
}

async function planAccounts(tx: DbOrTx, o: RestoreTargets, snapshot: SoftwareSnapshot, lock: boolean): Promise<PlannedTarget[]> {
  const ids = o.targets.map((t) => t.id);
  const restores = new Map(o.targets.map((t) => [t.id, t.restore]));
  const rows = await repo.selectUpdateAccounts(tx, { ids, hiddenClassIds: hiddenClassIds(o.principal as Principal), softwares: [], lock });
  const missing = missingTargets('accounts', ids, new Set(rows.map((r) => r.id)));
  if (missing) throw missing;
  const check = memoisedCheck(tx);
  const planned: PlannedTarget[] = [];
  for (const a of rows) {
    const account = { id: a.id, name: a.name, classId: a.classId };
    const restore = restores.get(a.id) ?? {};
    if (a.classId === CLASS_ADD_ON) {
      planned.push({ result: { id: a.id, name: a.name, changes: [], refused: 'Add-on accounts have no instance settings' }, account, auditChanges: [], next: {}, previous: {} });
      continue;
    }
    const fields = Object.entries(restore.machineConfig ?? {});
    const raw: Record<string, unknown> = { ...a.machineConfig };
    for (const [field, value] of fields) {
      if (value === null) delete raw[field];
      else raw[field] = value;
    }
    const instance = { autoStopTime: null, vmImageName: a.vmImageName ?? '', bundleVersion: a.bundleVersion };
    const before = readMachineConfig(a.machineConfig, instance);
    const after = readMachineConfig(raw, instance);
    const { errors, region } = await check(after, a.machineConfig);
    if (errors.length === 0) after.region = region;
    const changes: TTargetChange[] = [];
    const reasons = errors.map((e) => e.errorMessage);
    for (const key of CONFIG_COMPONENTS) {
      const [mode, version] = [after[`${key}VersionMode`], after[`${key}Version`]];
      if (mode === before[`${key}VersionMode`] && version === before[`${key}Version`]) continue;
      const resolved = resolvedRef(snapshot, key, mode, version);
      if (resolved === undefined) reasons.push(unresolvedReason(key, mode, version));
      changes.push({
        field: `${key}Version`,
        oldValue: versionText(before[`${key}VersionMode`], before[`${key}Version`]),
        newValue: versionText(mode, version),
        resolved: resolved ?? null,
      });
    }
    for (const field of ['mainLibraryMode', 'mainLibraryFiles', 'accountLibraryMode', 'accountLibraryFiles'] as const) {
      if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes.push({ field, oldValue: before[field], newValue: after[field] });
    }
    const machineOverrides = Object.keys(restore.machineOverrides ?? {}).length;
    if (machineOverrides > 0) changes.push({ field: 'versionOverrides', oldValue: null, newValue: `Set again on ${machineOverrides} machine(s)` });
    planned.push({
      result: { id: a.id, name: a.name, changes, refused: reasons.length > 0 ? [...new Set(reasons)].join('; ') : null },
      account,
      auditChanges: audited('accounts', a.id, changes),
      next: { ...after, instanceVersion: a.instanceVersion + 1 },
      previous: { machineConfig: Object.fromEntries(fields.map(([f]) => [f, a.machineConfig[f] ?? null])) },
    });
  }
  return planned;
}

/**
 * Per target what putting its versions back would change (no writes), refused
 * targets carrying the rule; with `lock` the target rows are locked `for update`
 * in id order. Throws 404 (HttpProblem) for unknown or hidden ids.
 */
export async function planRestore(tx: DbOrTx, o: RestoreTargets & { lock?: boolean; snapshot?: SoftwareSnapshot }): Promise<PlannedTarget[]> {
  const snapshot = o.snapshot ?? (await loadSoftwareSnapshot(tx));
  return o.kind === 'machines' ? planMachines(tx, o, snapshot, o.lock ?? false) : planAccounts(tx, o, snapshot, o.lock ?? false);
}

/** {@link planRestore}'s results only. */
export async function planRestoreResults(tx: DbOrTx, o: RestoreTargets): Promise<TTargetResult[]> {
  return (await planRestore(tx, o)).map((p) => p.result);
}

/**
 * Puts the targets' versions back inside `tx`, with `activityId` as the cause of
 * the desired-version change. Throws 404 for unknown or hidden ids and 422
 * naming refused targets. Answers the machines whose desired versions changed
 * and, per target, what it changed as it was before (a rollback can be rolled
 * back in turn).
 */
export async function applyRestore(
  tx: DbOrTx,
  o: RestoreTargets & { activityId: number },
): Promise<{ machineIds: number[]; previous: Map<number, UpdateRestore> }> {
  const snapshot = await loadSoftwareSnapshot(tx);
  const planned = await planRestore(tx, { ...o, lock: true, snapshot });
  const refused = refusedTargets(o.kind, o.targets.map((t) => t.id), planned.map((p) => p.result));
  if (refused) throw refused;
  const previous = new Map(planned.map((p) => [p.result.id, p.previous]));
  if (o.kind === 'machines') {
    const { machineIds } = await writePlanned(tx, { kind: 'machines', config: {} as never, planned, activityId: o.activityId, snapshot });
    return { machineIds, previous };
  }
  await repo.updateAccountConfigs(
    tx,
    planned.filter((p) => p.result.changes.some((c) => c.field !== 'versionOverrides')).map((p) => {
      const { instanceVersion, ...machineConfig } = p.next;
      return { accountId: p.result.id, machineConfig, instanceVersion: instanceVersion as number };
    }),
  );
  const restores = new Map(o.targets.map((t) => [t.id, t.restore]));
  await repo.mergeVersionOverrides(
    tx,
    planned.flatMap((p) => Object.entries(restores.get(p.result.id)?.machineOverrides ?? {}).map(([machineId, overrides]) => ({ machineId: Number(machineId), overrides }))),
  );
  const machines = await applyDesiredState(tx, { accountIds: planned.map((p) => p.result.id), activityId: o.activityId, snapshot });
  return { machineIds: machines.map((m) => m.id), previous };
}
