/** Version strings of the picker (spec 3 §4, §9) and the library dialog's rules (spec 1 §2, §9). */
import { describe, expect, it } from 'vitest';
import type { TLibraryFile } from '@fleet/contracts';
import { LIBRARY_DIALOG_PAGE_SIZE, newerInstalled } from './library-files';
import { commitVersion, effectiveLatestBranch, formatFileSize, latestBranch, latestVersion, modeLabel, truncate, versionLabel } from './version-format';

describe('version strings', () => {
  it('writes Latest as {branch}|latest, master by default and blank for any branch', () => {
    expect(latestVersion()).toBe('master|latest');
    expect(latestVersion('release/8.1')).toBe('release/8.1|latest');
    expect(latestVersion('')).toBe('|latest');
    expect(latestBranch('release/8.1|latest')).toBe('release/8.1');
    expect(latestBranch('|latest')).toBe('');
    expect(latestBranch('release/8.1|abc1234')).toBeNull();
  });

  it('reads a Latest version without |latest as that branch, blank as master', () => {
    expect(effectiveLatestBranch('release/8.1|latest')).toBe('release/8.1');
    expect(effectiveLatestBranch('|latest')).toBe('');
    expect(effectiveLatestBranch('develop')).toBe('develop');
    expect(effectiveLatestBranch('')).toBe('master');
  });

  it('labels every mode, an unknown one as itself', () => {
    expect(modeLabel('LatestBuild')).toBe('Latest build');
    expect(modeLabel('LatestDev')).toBe('Latest Dev');
    expect(modeLabel('Select')).toBe('Select');
    expect(modeLabel('Other')).toBe('Other');
  });

  it('writes a commit as {branch}|{shortHash} and shows a build URL as the zip file name', () => {
    expect(commitVersion({ branch: 'develop', shortHash: 'abc1234' })).toBe('develop|abc1234');
    expect(commitVersion({ branch: null, shortHash: 'abc1234' })).toBe('abc1234');
    expect(versionLabel('https://builds.example.net/launcher/release/launcher-8.1.3.1402.zip')).toBe('launcher-8.1.3.1402.zip');
  });

  it('shows a version as branch / hash, the hash alone without a branch, a build as its file name (spec 3 §2.8, §4)', () => {
    expect(versionLabel('release/8.2|56489bc')).toBe('release/8.2 / 56489bc');
    expect(versionLabel(commitVersion({ branch: 'develop', shortHash: 'abc1234' }))).toBe('develop / abc1234');
    expect(versionLabel('abc1234')).toBe('abc1234');
    expect(versionLabel('master|latest')).toBe('master / latest');
    expect(versionLabel('|latest')).toBe('latest');
    expect(versionLabel('https://builds.example/daily/app-1.2.zip?sig=1')).toBe('app-1.2.zip');
    expect(versionLabel('https://builds.example/daily/bad%E0%A4%A.zip')).toBe('bad%E0%A4%A.zip');
    expect(versionLabel(null)).toBe('');
    expect(versionLabel('')).toBe('');
  });

  it('cuts messages at 45 characters and formats sizes with base 1000 and 2 decimals', () => {
    expect(truncate('x'.repeat(45))).toBe('x'.repeat(45));
    expect(truncate('x'.repeat(46))).toBe(`${'x'.repeat(45)}…`);
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(999)).toBe('999 Bytes');
    expect(formatFileSize(1000)).toBe('1 KB');
    expect(formatFileSize(123_456_789)).toBe('123.46 MB');
    expect(formatFileSize(1e27)).toBe('1000 YB');
  });
});

describe('library dialog', () => {
  const file = (id: number, pkg: string, date: string): TLibraryFile => ({
    id,
    name: `${pkg}_${id}.zip`,
    url: '',
    package: pkg,
    type: 'Dev',
    version: '8.1',
    inS3: true,
    addedBy: 'lct2',
    isLct: true,
    date,
  });

  it('pages 12 files (550 / 45)', () => {
    expect(LIBRARY_DIALOG_PAGE_SIZE).toBe(12);
  });

  it('warns only where an installed file of the same package is newer', () => {
    const installed = [file(1, 'Fiber', '2026-05-01T00:00:00Z'), file(2, 'Fiber', '2026-06-01T00:00:00Z'), file(3, 'Core', '2026-07-01T00:00:00Z')];
    expect(newerInstalled(file(9, 'Fiber', '2026-04-01T00:00:00Z'), installed)?.id).toBe(2);
    expect(newerInstalled(file(9, 'Fiber', '2026-06-02T00:00:00Z'), installed)).toBeUndefined();
    expect(newerInstalled(file(9, 'Power', '2026-01-01T00:00:00Z'), installed)).toBeUndefined();
    expect(newerInstalled(installed[1]!, installed)).toBeUndefined();
  });
});
