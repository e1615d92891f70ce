/**
 * The desired version of each component, resolved from an account's machineConfig
 * (DESIGN §12 Desired state; spec 1 §3 machineConfig, §4; spec 3 §4 Version modes).
 * Pure: the software catalogue comes in as a {@link SoftwareSnapshot}, so the
 * seed, the instance settings push and the deploy controller resolve alike.
 *
 * Per component `X`, from `XVersionMode` and `XVersion`:
 * - **Latest** (`{branch}|latest`; blank branch = any branch, no version = master):
 *   the newest commit of the component on that branch (of any branch when blank).
 * - **Select**: a commit, `{branch}|{shortHash}` or a bare short (or full) hash,
 *   or a build, its URL (`…://…`): the commit the build was made from.
 * - **LatestBuild**: the commit of the component's newest build (by lastModified).
 * - **None**: not installed (for the deployer, "Default": the class's deployer, not pinned).
 *
 * A version is written `{branchName}|{shortHash}` in `machines.desired_versions`
 * and `current_versions` ({@link versionRef}); a component not installed is absent.
 *
 * A machine's version overrides (the updater's machine mode, DESIGN §12, §15)
 * replace its account's mode and version per component before resolving
 * ({@link withOverrides}).
 *
 * A component whose version cannot be resolved (a selected commit that is not in
 * the catalogue, a branch without commits of the component) is reported in
 * `unresolved`: the caller keeps what the machine runs for it rather than
 * uninstalling it (the push refuses unknown commits, so this is old data).
 */
import { CONFIG_COMPONENTS, DEFAULT_LATEST_BRANCH, type TComponentVersion, type TConfigComponent } from '@fleet/contracts';

/** A commit as a version state shows it, plus the component it belongs to. */
export interface CatalogueCommit extends TComponentVersion {
  software: string;
  fullHash: string;
}

/**
 * What resolving needs of the software catalogue: branch heads per component,
 * the commits by hash, builds by URL and each component's newest build.
 */
export interface SoftwareSnapshot {
  /** Newest commit of `software` on `branch`, key `software/branch`. */
  heads: Map<string, CatalogueCommit>;
  /** Newest commit of `software` on any branch. */
  newest: Map<string, CatalogueCommit>;
  /** Commits by `software/shortHash` and `software/fullHash`. */
  byHash: Map<string, CatalogueCommit>;
  /** The commit of each build, by `software/url`. */
  builds: Map<string, CatalogueCommit>;
  /** The commit of the newest build of `software`. */
  newestBuild: Map<string, CatalogueCommit>;
}

export interface ResolvedState {
  /** Every component: its commit, or null when not installed. */
  components: Record<TConfigComponent, TComponentVersion | null>;
  /** `component → {branch}|{shortHash}` of the installed ones (the `desired_versions` map). */
  versions: Record<string, string>;
  /** Components whose version could not be resolved (see the module docstring). */
  unresolved: TConfigComponent[];
}

/** The string a version is stored as in the machines' version maps. */
export const versionRef = (c: { branchName: string; shortHash: string }): string => `${c.branchName}|${c.shortHash}`;

/** Splits a stored version `{branch}|{shortHash}` (a bare hash has an empty branch). */
export function parseVersionRef(ref: string): { branchName: string; shortHash: string } {
  const at = ref.lastIndexOf('|');
  return at < 0 ? { branchName: '', shortHash: ref } : { branchName: ref.slice(0, at), shortHash: ref.slice(at + 1) };
}

const strip = (c: CatalogueCommit): TComponentVersion => ({ branchName: c.branchName, shortHash: c.shortHash, timestamp: c.timestamp });

/**
 * One component's desired commit: a commit, null for not installed, or
 * `undefined` when it cannot be resolved.
 */
export function resolveComponent(
  snapshot: SoftwareSnapshot,
  key: string,
  mode: unknown,
  version: unknown,
): TComponentVersion | null | undefined {
  const text = typeof version === 'string' ? version.trim() : '';
  switch (mode) {
    case 'Latest': {
      const branch = text === '' ? DEFAULT_LATEST_BRANCH : text.endsWith('|latest') ? text.slice(0, -'|latest'.length) : text;
      const head = branch === '' ? snapshot.newest.get(key) : snapshot.heads.get(`${key}/${branch}`);
      return head ? strip(head) : undefined;
    }
    case 'Select': {
      if (text === '') return null;
      if (text.includes('://')) {
        const built = snapshot.builds.get(`${key}/${text}`);
        return built ? strip(built) : undefined;
      }
      // A hash names one commit, whose branch is the catalogue's: the prefix is the picker's label.
      const commit = snapshot.byHash.get(`${key}/${parseVersionRef(text).shortHash}`);
      return commit ? strip(commit) : undefined;
    }
    case 'LatestBuild': {
      const built = snapshot.newestBuild.get(key);
      return built ? strip(built) : undefined;
    }
    default:
      return null;
  }
}

/**
 * The machineConfig a machine resolves: its account's `machineConfig` with each
 * overridden component's mode and version (`component → {mode, version}`) in place.
 */
export function withOverrides(
  machineConfig: Record<string, unknown>,
  overrides: Record<string, { mode: string; version: string }> | undefined,
): Record<string, unknown> {
  if (!overrides || Object.keys(overrides).length === 0) return machineConfig;
  const out = { ...machineConfig };
  for (const [key, o] of Object.entries(overrides)) {
    out[`${key}VersionMode`] = o.mode;
    out[`${key}Version`] = o.version;
  }
  return out;
}

/** Resolves every component of `machineConfig` (see the module docstring). */
export function resolveMachineConfig(snapshot: SoftwareSnapshot, machineConfig: Record<string, unknown>): ResolvedState {
  const components = {} as Record<TConfigComponent, TComponentVersion | null>;
  const versions: Record<string, string> = {};
  const unresolved: TConfigComponent[] = [];
  for (const key of CONFIG_COMPONENTS) {
    const resolved = resolveComponent(snapshot, key, machineConfig[`${key}VersionMode`], machineConfig[`${key}Version`]);
    if (resolved === undefined) {
      unresolved.push(key);
      components[key] = null;
      continue;
    }
    components[key] = resolved;
    if (resolved) versions[key] = versionRef(resolved);
  }
  return { components, versions, unresolved };
}

/** The newest commit of each of `components` on `branch` (TestLatestCode); components without one are left out. */
export function branchHeads(snapshot: SoftwareSnapshot, branch: string, components: readonly string[]): Record<string, TComponentVersion> {
  const out: Record<string, TComponentVersion> = {};
  for (const key of components) {
    const head = snapshot.heads.get(`${key}/${branch}`);
    if (head) out[key] = strip(head);
  }
  return out;
}
