/**
 * Text helpers of the version picker and its dialogs (spec 3 §2.1, §4, §9).
 *
 * Version strings of a component (spec 3 §4):
 * - Latest: `{branch}|latest`; a blank branch (`|latest`) means any branch.
 * - Select: a commit as `{branch}|{shortHash}` (or a bare short hash), or a build URL.
 * - None and LatestBuild: empty.
 */
import { DEFAULT_LATEST_BRANCH } from '@fleet/contracts';

/** Commit messages are cut at this many characters in the modal (spec 3 §9). */
export const COMMIT_MESSAGE_MAX = 45;

/** The Latest version of `branch` (`master` by default; `''` for any branch). */
export function latestVersion(branch: string | null | undefined = DEFAULT_LATEST_BRANCH): string {
  return `${branch ?? ''}|latest`;
}

/** The branch of a Latest version (`''` is any branch), or null when `version` is not a Latest version. */
export function latestBranch(version: string | null | undefined): string | null {
  if (!version?.endsWith('|latest')) return null;
  return version.slice(0, -'|latest'.length);
}

export const isBuildUrl = (version: string): boolean => /^https?:\/\//i.test(version);

/** A selected commit as the picker stores it: `{branch}|{shortHash}`, or the hash alone without a branch. */
export function commitVersion(commit: { branch: string | null; shortHash: string }): string {
  return commit.branch ? `${commit.branch}|${commit.shortHash}` : commit.shortHash;
}

/**
 * What the picker shows for a selected version: the zip's file name for a build URL
 * (spec 3 §4), else the stored text (`{branch}|{shortHash}` or a hash).
 */
export function versionLabel(version: string): string {
  if (!isBuildUrl(version)) return version;
  const path = version.split(/[?#]/)[0] ?? version;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || version;
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
