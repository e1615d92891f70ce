/**
 * Versions of the seeded machines (DESIGN §12 Desired state, spec 2 §3 Version
 * state): desired versions are the account's machineConfig resolved by the same
 * resolver as the engine's (`engine/desired-state/resolve.ts`), so the deploy
 * controller finds nothing to resolve again; current versions equal them except
 * on the machines the fleet generator made obsolete (its current and desired maps
 * differ), which run an older commit of one to three components, or have not
 * installed one yet.
 *
 * Version states (demo only; `SEED=scale` skips them to stay fast, and the API
 * answers a machine without a stored state from its current versions): per
 * machine the current state, consistent with its current versions, and two
 * historical ones with older commits, at 80 %, 50 % and 20 % of its life.
 *
 * Uses no random generator: the choices follow from the rows, so the rest of the
 * seed is unchanged by it.
 */
import { CONFIG_COMPONENTS, type TComponentVersion } from '@fleet/contracts';
import type { versionStates } from '../db/schema.js';
import { parseVersionRef, resolveMachineConfig, versionRef, type ResolvedState, type SoftwareSnapshot } from '../engine/desired-state/resolve.js';
import type { MachineRow } from './machines.js';
import { BASE_DATE } from './random.js';
import type { SoftwareCatalogue } from './software.js';

export type VersionStateRow = typeof versionStates.$inferInsert;

/** A commit `steps` older than `ref` on its branch (the oldest when the branch has fewer), or undefined when none differs. */
function olderRef(catalogue: SoftwareCatalogue, key: string, ref: string, steps: number): string | undefined {
  const { branchName, shortHash } = parseVersionRef(ref);
  for (let i = steps; i <= steps + 8; i++) {
    const commit = catalogue.commitAt(key, branchName, i);
    if (commit.branch === branchName && commit.shortHash !== shortHash) return versionRef({ branchName, shortHash: commit.shortHash });
  }
  return undefined;
}

function components(snapshot: SoftwareSnapshot, versions: Record<string, string>): Record<string, TComponentVersion | null> {
  return Object.fromEntries(
    CONFIG_COMPONENTS.map((key) => {
      const ref = versions[key];
      const commit = ref ? snapshot.byHash.get(`${key}/${parseVersionRef(ref).shortHash}`) : undefined;
      return [key, commit ? { branchName: commit.branchName, shortHash: commit.shortHash, timestamp: commit.timestamp } : null];
    }),
  );
}

/**
 * Sets `currentVersions` and `desiredVersions` of each machine (see the module
 * docstring) from its account's machineConfig (`configOf`); answers the version
 * state rows to insert when `states` is true.
 */
export function assignVersions(
  rows: MachineRow[],
  opts: { configOf: Map<number, Record<string, unknown>>; snapshot: SoftwareSnapshot; catalogue: SoftwareCatalogue; states: boolean },
): VersionStateRow[] {
  const resolved = new Map<number, ResolvedState>();
  const out: VersionStateRow[] = [];
  for (const m of rows) {
    let state = resolved.get(m.accountId);
    if (!state) {
      state = resolveMachineConfig(opts.snapshot, opts.configOf.get(m.accountId) ?? {});
      resolved.set(m.accountId, state);
    }
    const desired = state.versions;
    const before = m.currentVersions ?? {};
    const after = m.desiredVersions ?? {};
    const differing = Object.keys(after).filter((k) => before[k] !== after[k]);
    const current = { ...desired };
    if (differing.length > 0) {
      const keys = differing.filter((k) => k in desired);
      for (const key of keys.length > 0 ? keys : Object.keys(desired).slice(0, 1)) {
        const older = olderRef(opts.catalogue, key, desired[key]!, 1 + (m.id % 3));
        if (older) current[key] = older;
        else delete current[key];
      }
    }
    m.desiredVersions = desired;
    m.currentVersions = current;
    if (!opts.states) continue;

    const born = (m.createdAt ?? BASE_DATE).getTime();
    const at = (share: number) => new Date(born + (BASE_DATE.getTime() - born) * share);
    const older = (steps: number) =>
      Object.fromEntries(Object.entries(current).map(([k, ref]) => [k, (k.length + m.id) % 2 === 0 ? (olderRef(opts.catalogue, k, ref, steps) ?? ref) : ref]));
    out.push(
      { machineId: m.id, current: false, timestamp: at(0.2), components: components(opts.snapshot, older(2)) },
      { machineId: m.id, current: false, timestamp: at(0.5), components: components(opts.snapshot, older(1)) },
      { machineId: m.id, current: true, timestamp: at(0.8), components: components(opts.snapshot, current) },
    );
  }
  return out;
}
