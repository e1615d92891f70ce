/**
 * Text helpers of the version picker and its dialogs (spec 3 §2.1, §4, §9).
 *
 * Version strings of a component (spec 3 §4):
 * - Latest: `{branch}|latest`; a blank branch (`|latest`) means any branch.
 * - Select: a commit as `{branch}|{shortHash}` (or a bare short hash), or a build URL.
 * - None and LatestBuild: empty.
 */
export { isBuildUrl, versionLabel } from '@fleet/contracts';
import { DEFAULT_LATEST_BRANCH, type ACCOUNT_LIBRARY_MODES, type MAIN_LIBRARY_MODES, type TAccountVersionMode } from '@fleet/contracts';

/** Commit messages are cut at this many characters in the modal (spec 3 §9). */
export const COMMIT_MESSAGE_MAX = 45;

/** A version mode of a component or of a library. */
export type VersionMode = TAccountVersionMode | (typeof MAIN_LIBRARY_MODES)[number] | (typeof ACCOUNT_LIBRARY_MODES)[number];

/** What the pickers and the Compare Versions dialog call each mode. */
export const MODE_LABELS: Readonly<Record<VersionMode, string>> = {
  None: 'None',
  Skip: 'Skip',
  Latest: 'Latest',
  LatestBuild: 'Latest build',
  LatestDev: 'Latest Dev',
  LatestProd: 'Latest Prod',
  LatestAccount: 'Latest Account',
  Select: 'Select',
};

/** The label of a stored mode; an unknown mode reads as itself. */
export function modeLabel(mode: string): string {
  return (MODE_LABELS as Readonly<Record<string, string | undefined>>)[mode] ?? mode;
}

/** The Latest version of `branch` (`master` by default; `''` for any branch). */
export function latestVersion(branch: string | null | undefined = DEFAULT_LATEST_BRANCH): string {
  return `${branch ?? ''}|latest`;
}

/** The branch of a Latest version (`''` is any branch), or null when `version` is not a Latest version. */
export function latestBranch(version: string | null | undefined): string | null {
  if (!version?.endsWith('|latest')) return null;
  return version.slice(0, -'|latest'.length);
}

/**
 * The branch a Latest-mode `version` runs: its branch (`''` is any branch); the
 * server reads a version without `|latest` as that branch (blank: master).
 */
export function effectiveLatestBranch(version: string | null | undefined): string {
  return latestBranch(version) ?? (version || DEFAULT_LATEST_BRANCH);
}


/** A selected commit as the picker stores it: `{branch}|{shortHash}`, or the hash alone without a branch. */
export function commitVersion(commit: { branch: string | null; shortHash: string }): string {
  return commit.branch ? `${commit.branch}|${commit.shortHash}` : commit.shortHash;
}

/** `text` cut at `max` characters with an ellipsis (spec 3 §9: 45 for commit messages). */
export function truncate(text: string, max = COMMIT_MESSAGE_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** A size in bytes with base 1000, units Bytes to YB and 2 decimals (spec 3 §9), e.g. `123.46 MB`. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1000)), SIZE_UNITS.length - 1);
  return `${parseFloat((bytes / 1000 ** exponent).toFixed(2))} ${SIZE_UNITS[exponent]}`;
}
