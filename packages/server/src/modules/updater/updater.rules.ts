/**
 * The per-target rules of the updater's batches (spec 3 §2.8, §7 Updater and
 * batch; spec 1 §4, §5; DESIGN §15): what a batch changes on one target, or
 * the rule that refuses it. Pure functions over what the repository read; the
 * service applies them to every target, answers a dry run with them, and
 * refuses (422) a real run when any target is refused.
 */
import { CLASS_ADD_ON, type TAuditChange, type TTargetChange, type TTargetResult } from '@fleet/contracts';
import type { AccountTarget, MachineTarget } from './updater.repository.js';

/** The field changes of a target: each field of `next` whose value differs from `current`'s (compared as JSON). */
export function fieldChanges(current: Record<string, unknown>, next: Record<string, unknown>): TTargetChange[] {
  const changes: TTargetChange[] = [];
  for (const [field, newValue] of Object.entries(next)) {
    if (newValue === undefined) continue;
    const oldValue = current[field] ?? null;
    if (JSON.stringify(oldValue) !== JSON.stringify(newValue ?? null)) changes.push({ field, oldValue, newValue: newValue ?? null });
  }
  return changes;
}

/** Rule: a machine being terminated (an unfinished TerminateMachine task) takes no change (spec 2 §4). */
export const TERMINATING = 'The machine is being terminated (an unfinished TerminateMachine task)';

/**
 * `PUT /machines/batch` on one machine: the changes of managed, manual
 * maintenance and class (fields already equal are no change), or refused when
 * it is being terminated. Moving into Customer Production without the group is
 * the caller's 403, before any target is read.
 */
export function machineFlagResult(
  m: MachineTarget,
  body: { managed?: boolean; manualMaintenance?: boolean; classId?: number },
): TTargetResult {
  const changes = fieldChanges(m as unknown as Record<string, unknown>, {
    managed: body.managed,
    manualMaintenance: body.manualMaintenance,
    classId: body.classId,
  });
  return { id: m.id, name: m.name, changes, refused: changes.length > 0 && m.terminating ? TERMINATING : null };
}

/** Rules of the add-on class (spec 1 §4, §5; account-settings `normaliseProperties` and the push's class check). */
export const ADD_ON_CLASS = 'An existing account cannot be changed to or from the add-on class';
export const ADD_ON_MANAGED = 'Add-on accounts stay unmanaged';
export const ADD_ON_AUTO_TEST = 'Add-on accounts have no auto test';

/**
 * `PUT /accounts/batch` on one account, with the rules of Push Account
 * Properties: an account cannot move to or from the add-on class (200); an
 * add-on account stays unmanaged without auto test; turning auto test off drops
 * the auto test branch. Moving into Customer Production without the group is
 * the caller's 403.
 */
export function accountFlagResult(a: AccountTarget, body: { managed?: boolean; classId?: number; autoTest?: boolean }): TTargetResult {
  const addOn = a.classId === CLASS_ADD_ON;
  const refused =
    body.classId !== undefined && (body.classId === CLASS_ADD_ON) !== addOn
      ? ADD_ON_CLASS
      : addOn && body.managed === true
        ? ADD_ON_MANAGED
        : addOn && body.autoTest === true
          ? ADD_ON_AUTO_TEST
          : null;
  const changes = fieldChanges(a as unknown as Record<string, unknown>, {
    managed: body.managed,
    classId: body.classId,
    autoTest: body.autoTest,
    autoTestBranch: body.autoTest === false ? null : undefined,
  });
  return { id: a.id, name: a.name, changes, refused };
}

/** The changes of a whole configuration: one per key added, removed (new value null) or changed, in key order. */
export function configChanges(current: Record<string, unknown>, next: Record<string, unknown>): TTargetChange[] {
  const keys = [...new Set([...Object.keys(current), ...Object.keys(next)])].sort();
  return fieldChanges(
    Object.fromEntries(keys.map((k) => [k, current[k] ?? null])),
    Object.fromEntries(keys.map((k) => [k, k in next ? next[k] : null])),
  );
}

/** The audit changes of the accepted targets: entity `{entity} {id}`, one per field. */
export function auditChanges(entity: 'Machine' | 'Account', targets: TTargetResult[]): TAuditChange[] {
  return targets.flatMap((t) =>
    t.changes.map((c) => ({ entityName: `${entity} ${t.id}`, propertyName: c.field, oldValue: c.oldValue ?? null, newValue: c.newValue ?? null })),
  );
}
