/**
 * The pure rules of the batch Component Configs and Deployer Configs editor
 * (spec 3 §2.8, §7 Updater and batch: `PUT /machines/batch/component-configs`
 * takes each machine's whole configuration, keyed by machine id).
 *
 * The editor lists every key any selected machine has now, plus the keys of
 * their defaults (so a default key no machine has yet can be set); a key's value
 * is shared when every machine has the same, else it differs (a machine lacking
 * the key differs from one that has it). Saving keeps each machine's current
 * configuration and changes only the keys the operator edited: a key a machine
 * has beyond (or unlike) its defaults is kept; an edited key it lacks is added.
 */

/** One machine's configuration (keys `rootKey.subKey`). */
export interface MachineConfig {
  machineId: number;
  config: Record<string, unknown>;
}

/** What the machines hold at a key: one shared value, values that differ, or nothing on any machine. */
export type SharedValue = { value: unknown } | 'differs' | 'unset';

export interface BatchConfigKey {
  key: string;
  shared: SharedValue;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The keys of the editor, sorted: the union of the machines' current keys and
 * of their defaults' keys, each with what the machines hold now (`current`).
 */
export function batchConfigKeys(current: readonly MachineConfig[], defaults: readonly MachineConfig[]): BatchConfigKey[] {
  const keys = [...new Set([...current, ...defaults].flatMap((c) => Object.keys(c.config)))].sort();
  return keys.map((key) => {
    const held = current.filter((c) => key in c.config);
    if (held.length === 0) return { key, shared: 'unset' };
    const first = held[0]!.config[key];
    const shared = held.length === current.length && held.every((c) => same(c.config[key], first));
    return { key, shared: shared ? { value: first } : 'differs' };
  });
}

/**
 * The body of the batch save, keyed by machine id: each machine's current
 * configuration with the `edits` (key to new value) set over it. Keys not
 * edited keep the machine's own value; an edited key it lacks is added.
 */
export function machineConfigsToSave(current: readonly MachineConfig[], edits: Readonly<Record<string, unknown>>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(current.map((c) => [String(c.machineId), { ...c.config, ...edits }]));
}
