/**
 * Rules of the machine config editors without React (spec 2 §2.3 Component
 * Configs and Deployer Config, §3 Component config definition, §5, §9):
 *
 * - Keys are written `rootKey.subKey` (the root key ends at the first dot).
 * - A key's dataType is its definition's (null: string); a key without a
 *   definition is typed by its value.
 * - Defaults by type: number 0, boolean false, string empty, json empty object.
 * - Adding a key (`decideAdd`): a key the machine has already changes nothing; a
 *   key whose definition exists with another dataType is silently aborted; an
 *   unknown key needs its definition created first.
 * - Sub-key suggestions are the catalogue's sub keys of the root key, without
 *   the keys the machine already has.
 * - Protected keys are read-only: a machine's protected key cannot be changed or
 *   removed, and one it lacks cannot be added (the server answers 422 for both),
 *   so protected keys are not suggested either.
 */
import {
  CONFIG_ROOT_KEY,
  CONFIG_ROOT_KEY_MESSAGE,
  CONFIG_SUB_KEY,
  CONFIG_SUB_KEY_MESSAGE,
  configTypeDefault,
  hasConfigType,
  type TConfigDataType,
  type TConfigDataTypeName,
} from '@fleet/contracts';

/** A definition as the editors need it (either catalogue). */
export interface DefinitionLike {
  rootKey: string;
  subKey: string;
  dataType: TConfigDataType;
  protected: boolean;
}

export const configKey = (d: Pick<DefinitionLike, 'rootKey' | 'subKey'>) => `${d.rootKey}.${d.subKey}`;

/** `rootKey.subKey` split at the first dot (a sub key may hold dots). */
export function splitKey(key: string): { rootKey: string; subKey: string } {
  const dot = key.indexOf('.');
  return dot < 0 ? { rootKey: key, subKey: '' } : { rootKey: key.slice(0, dot), subKey: key.slice(dot + 1) };
}

/** The editors' name of a stored dataType (null is string). */
export const typeName = (dataType: TConfigDataType | undefined): TConfigDataTypeName => dataType ?? 'string';

/** The stored dataType of an editor type name. */
export const storedType = (name: TConfigDataTypeName): TConfigDataType => (name === 'string' ? null : name);

/** Default value of a type (spec 2 §5, §9). */
export function defaultOfType(name: TConfigDataTypeName): unknown {
  return configTypeDefault(name);
}

/** The type of a value whose key has no definition. */
export function typeOfValue(value: unknown): TConfigDataTypeName {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean' || value === null) return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'json';
}

/** Definitions by key. */
export const byKey = <D extends DefinitionLike>(defs: readonly D[]) => new Map(defs.map((d) => [configKey(d), d]));

/** Root keys of the catalogue and of the machine's keys, sorted. */
export function rootKeys(defs: readonly DefinitionLike[], present: readonly string[]): string[] {
  return [...new Set([...defs.map((d) => d.rootKey), ...present.map((k) => splitKey(k).rootKey)])].sort();
}

/** Sub keys of `rootKey` in the catalogue that the machine does not have yet (spec 2 §5), sorted; protected ones left out. */
export function subKeySuggestions(defs: readonly DefinitionLike[], rootKey: string, present: ReadonlySet<string>): string[] {
  return defs
    .filter((d) => d.rootKey === rootKey && !d.protected && !present.has(configKey(d)))
    .map((d) => d.subKey)
    .sort();
}

/** What adding a key does (spec 2 §5). */
export type AddDecision =
  | { kind: 'invalid'; field: 'rootKey' | 'subKey'; message: string }
  /** The machine has the key already: nothing to add. */
  | { kind: 'present' }
  /** The key is defined with another dataType: silently aborted. */
  | { kind: 'type-mismatch' }
  /** The key is defined with this dataType: add it. */
  | { kind: 'known' }
  /** The key has no definition: create it, then add it. */
  | { kind: 'unknown' };

export function decideAdd(
  input: { rootKey: string; subKey: string; dataType: TConfigDataTypeName },
  definitions: ReadonlyMap<string, DefinitionLike>,
  present: ReadonlySet<string>,
): AddDecision {
  if (!CONFIG_ROOT_KEY.test(input.rootKey)) return { kind: 'invalid', field: 'rootKey', message: CONFIG_ROOT_KEY_MESSAGE };
  if (!CONFIG_SUB_KEY.test(input.subKey)) return { kind: 'invalid', field: 'subKey', message: CONFIG_SUB_KEY_MESSAGE };
  const key = `${input.rootKey}.${input.subKey}`;
  if (present.has(key)) return { kind: 'present' };
  const def = definitions.get(key);
  if (!def) return { kind: 'unknown' };
  if (typeName(def.dataType) !== input.dataType) return { kind: 'type-mismatch' };
  if (def.protected) return { kind: 'invalid', field: 'subKey', message: 'Protected configs are read-only' };
  return { kind: 'known' };
}

const VALUE_PROBLEMS: Record<TConfigDataTypeName, string> = {
  number: 'A number is needed',
  boolean: 'true, false or null',
  string: 'Text is needed',
  json: 'Invalid JSON',
};

/** Why a value cannot be saved as `type`, or undefined when it can (booleans may be null). */
export function valueProblem(value: unknown, type: TConfigDataTypeName): string | undefined {
  return hasConfigType(value, type) ? undefined : VALUE_PROBLEMS[type];
}

/** The JSON text of a value for its editor. */
export const jsonText = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** A JSON text parsed, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether two configurations hold the same keys and values (key order aside). */
export function sameConfig(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}
