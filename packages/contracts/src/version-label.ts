/**
 * Versions as people read them (spec 3 §2.8, §4), one formatter for the
 * console's screens and the server's texts (an operation's output): a stored
 * version string (`{branch}|{shortHash}`, `{branch}|latest`, a bare hash, a
 * build URL) is not changed, only shown.
 */

/** `v` is a version map (`component → {branch}|{hash}`), as an operation's `params.versions` or a machine's versions hold. */
export const isVersionMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/** True for a version that is a build's URL (spec 3 §4: Select from the builds tab). */
export const isBuildUrl = (version: string): boolean => /^https?:\/\//i.test(version);

/**
 * A version as people read it, the one formatter of every screen that shows a
 * software version (spec 3 §2.8: "branch / hash, or just the hash when there is
 * no branch"; spec 3 §4: a build URL shows as the zip's file name):
 * - `{branch}|{shortHash}` → `branch / shortHash`; a bare hash as it is;
 * - `{branch}|latest` → `branch / latest`; `|latest` (any branch) → `latest`;
 * - a build URL → its file name (`launcher-8.1.3.1402.zip`);
 * - null, undefined and '' → ''.
 * The stored value (what the server gets) is not changed; screens may show it
 * as a tooltip.
 */
export function versionLabel(version: string | null | undefined): string {
  if (!version) return '';
  if (isBuildUrl(version)) {
    const path = version.split(/[?#]/)[0] ?? version;
    const file = path.slice(path.lastIndexOf('/') + 1);
    try {
      return decodeURIComponent(file) || version;
    } catch {
      return file || version;
    }
  }
  const bar = version.indexOf('|');
  if (bar < 0) return version;
  const branch = version.slice(0, bar);
  const rest = version.slice(bar + 1);
  return branch ? `${branch} / ${rest}` : rest;
}

