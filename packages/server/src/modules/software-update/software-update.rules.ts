/**
 * The rules a software update and its rollback share (spec 3 §4 Version modes,
 * §7; issue 25 point 3): the softwares an update sets, versions as text and
 * resolved, the 404 of unknown targets, the instance settings rules asked once
 * per kind of account, and what a target's versions were before an update
 * ({@link UpdateRestore}, what a rollback puts back).
 */
import {
  ACCOUNT_VERSION_MODES,
  COMPONENT_LABELS,
  CONFIG_COMPONENTS,
  type TConfigComponent,
  type TFieldError,
  type TMachineConfig,
  type TSoftwareUpdateConfig,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { HttpProblem } from '../../lib/problem.js';
import { LOCKED_INSTANCE_FIELDS, checkMachineConfig, normaliseMachineConfig, readMachineConfig } from '../account-settings/account-rules.js';
import { resolveComponent, versionRef, type SoftwareSnapshot } from '../../engine/desired-state/resolve.js';

/** Machines ('machines', the updater's machine mode) or accounts ('accounts', account mode). */
export type UpdateKind = 'machines' | 'accounts';

/** A machine's override of one software: a version mode and version as the push stores them. */
export type VersionOverride = { mode: string; version: string };

/**
 * The desired versions a target had before an update changed them (issue 25
 * point 3): kept per rollout target (`rollout_targets.previous`) and put back by
 * a rollback (`software-update.restore.ts`). Only what the update set is kept.
 */
export interface UpdateRestore {
  /** Machine targets: the machine's override of each software the update set, as it was (null: none, it followed its account). */
  overrides?: Record<string, VersionOverride | null>;
  /** Account targets: the account machineConfig fields the update set, as stored (null: not stored). */
  machineConfig?: Record<string, unknown>;
  /** Account targets: the overrides of the softwares set that the update cleared on the account's machines, by machine id. */
  machineOverrides?: Record<string, Record<string, VersionOverride>>;
}

/** The library fields of machineConfig an update's library modes set (account mode). */
export function librarySet(config: TSoftwareUpdateConfig): string[] {
  return [
    ...(config.mainLibraryMode !== 'Skip' ? ['mainLibraryMode', 'mainLibraryFiles'] : []),
    ...(config.accountLibraryMode !== 'Skip' ? ['accountLibraryMode', 'accountLibraryFile', 'accountLibraryFiles'] : []),
  ];
}

/** An account's mode and version of `key` as stored (a missing or invalid mode reads as its default, as readMachineConfig reads it). */
export function accountVersion(raw: Record<string, unknown>, key: TConfigComponent): VersionOverride {
  const defaults = readMachineConfig({}, {});
  const mode = raw[`${key}VersionMode`];
  const version = raw[`${key}Version`];
  return ACCOUNT_VERSION_MODES.includes(mode as never)
    ? { mode: mode as string, version: typeof version === 'string' ? version : '' }
    : { mode: defaults[`${key}VersionMode`] as string, version: defaults[`${key}Version`] as string };
}

/** The softwares an update sets (mode not Skip), in the catalogue's order. */
export const softwaresSet = (config: TSoftwareUpdateConfig): TConfigComponent[] =>
  CONFIG_COMPONENTS.filter((key) => config[`${key}VersionMode`] !== 'Skip');

/** A version mode and version as text, e.g. 'Latest master', 'Select develop|abc1234', 'None'. */
export function versionText(mode: unknown, version: unknown): string {
  const text = typeof version === 'string' ? version : '';
  switch (mode) {
    case 'Latest': {
      const branch = text.endsWith('|latest') ? text.slice(0, -'|latest'.length) : text;
      return `Latest ${branch || 'any branch'}`;
    }
    case 'Select':
      return `Select ${text}`;
    case 'LatestBuild':
      return 'LatestBuild';
    default:
      return 'None';
  }
}

/** `config` with the update's softwares (not Skip) and library modes (not Skip) set, normalised as the push normalises. */
export function withUpdate(config: TMachineConfig, update: TSoftwareUpdateConfig): TMachineConfig {
  const out: Record<string, unknown> = { ...config };
  for (const key of softwaresSet(update)) {
    out[`${key}VersionMode`] = update[`${key}VersionMode`];
    out[`${key}Version`] = update[`${key}Version`];
  }
  if (update.mainLibraryMode !== 'Skip') {
    out.mainLibraryMode = update.mainLibraryMode;
    out.mainLibraryFiles = update.mainLibraryFiles;
  }
  if (update.accountLibraryMode !== 'Skip') {
    out.accountLibraryMode = update.accountLibraryMode;
    out.accountLibraryFile = update.accountLibraryFile;
    out.accountLibraryFiles = update.accountLibraryFile === null ? [] : [update.accountLibraryFile];
  }
  return normaliseMachineConfig(out as TMachineConfig);
}

/** The resolved commit as `{branch}|{shortHash}`, null for not installed, undefined when it does not resolve. */
export function resolvedRef(snapshot: SoftwareSnapshot, key: string, mode: unknown, version: unknown): string | null | undefined {
  const commit = resolveComponent(snapshot, key, mode, version);
  return commit === undefined ? undefined : commit && versionRef(commit);
}

export const unresolvedReason = (key: TConfigComponent, mode: unknown, version: unknown) =>
  `${COMPONENT_LABELS[key]} version ${versionText(mode, version)} does not resolve to a known commit or build`;

/** 404 naming each unknown or hidden id by its request field and index. */
export function missingTargets(kind: UpdateKind, targetIds: number[], found: Set<number>): HttpProblem | null {
  const label = kind === 'machines' ? 'Machine' : 'Account';
  const errors: TFieldError[] = targetIds.flatMap((id, i) =>
    found.has(id) ? [] : [{ propertyName: `${kind}.${i}`, errorMessage: `${label} ${id} was not found`, attemptedValue: id }],
  );
  if (errors.length === 0) return null;
  return new HttpProblem(404, 'Not Found', `${errors.length} ${kind === 'machines' ? 'machine' : 'account'}(s) were not found`, errors);
}

/** The fields of a config and of the stored config that `checkMachineConfig` reads (the rest cannot change its answer). */
const CHECKED_FIELDS = [
  ...CONFIG_COMPONENTS.flatMap((key) => [`${key}VersionMode`, `${key}Version`]),
  'mainLibraryFiles',
  'accountLibraryFiles',
  ...Object.keys(LOCKED_INSTANCE_FIELDS),
];

/**
 * The instance settings push's rules (`checkMachineConfig`, reused as is), run
 * once per distinct input: accounts with the same versions, library files and
 * locked fields share one answer (the rules read nothing else), so a large
 * update asks the catalogue once per kind of account, not once per account.
 */
export function memoisedCheck(tx: DbOrTx) {
  const seen = new Map<string, Promise<{ errors: TFieldError[]; region: string }>>();
  return (config: TMachineConfig, stored: Record<string, unknown>) => {
    const c = config as unknown as Record<string, unknown>;
    const key = JSON.stringify([CHECKED_FIELDS.map((f) => c[f]), Object.keys(LOCKED_INSTANCE_FIELDS).map((f) => stored[f] ?? null)]);
    let answer = seen.get(key);
    if (!answer) {
      answer = checkMachineConfig(tx, { config, stored }).then((r) => ({ errors: r.errors, region: r.config.region }));
      seen.set(key, answer);
    }
    return answer;
  };
}
