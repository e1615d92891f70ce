/**
 * The resolver of machineConfig version modes (DESIGN §12; spec 3 §4): each mode
 * against a small hand-made catalogue, and a machine's version overrides.
 */
import { describe, expect, it } from 'vitest';
import {
  parseVersionRef,
  resolveComponent,
  resolveMachineConfig,
  versionRef,
  withOverrides,
  type CatalogueCommit,
  type SoftwareSnapshot,
} from './resolve.js';

const commit = (software: string, branchName: string, shortHash: string, day: number): CatalogueCommit => ({
  software,
  branchName,
  shortHash,
  fullHash: `${shortHash}${'0'.repeat(33)}`,
  timestamp: `2026-10-${String(day).padStart(2, '0')}T12:00:00.000Z`,
});

/** launcher: master a1 (day 1) < a2 (day 5); develop d1 (day 9, the newest of any branch); builds of a1 (newest) and a2. */
function snapshot(): SoftwareSnapshot {
  const a1 = commit('launcher', 'master', 'aaaa001', 1);
  const a2 = commit('launcher', 'master', 'aaaa002', 5);
  const d1 = commit('launcher', 'develop', 'dddd001', 9);
  const s = { heads: new Map(), newest: new Map(), byHash: new Map(), builds: new Map(), newestBuild: new Map() } as SoftwareSnapshot;
  s.heads.set('launcher/master', a2).set('launcher/develop', d1);
  s.newest.set('launcher', d1);
  for (const c of [a1, a2, d1]) s.byHash.set(`launcher/${c.shortHash}`, c).set(`launcher/${c.fullHash}`, c);
  s.builds.set('launcher/https://builds.example/launcher-8.1.zip', a2).set('launcher/https://builds.example/launcher-8.2.zip', a1);
  s.newestBuild.set('launcher', a1);
  return s;
}

const hashOf = (v: ReturnType<typeof resolveComponent>) => (v ? v.shortHash : v);

describe('resolveComponent', () => {
  const s = snapshot();

  it('Latest: the newest commit of the branch; no version means master; a blank branch means any branch', () => {
    expect(resolveComponent(s, 'launcher', 'Latest', 'develop|latest')).toEqual({ branchName: 'develop', shortHash: 'dddd001', timestamp: '2026-10-09T12:00:00.000Z' });
    expect(hashOf(resolveComponent(s, 'launcher', 'Latest', 'master|latest'))).toBe('aaaa002');
    expect(hashOf(resolveComponent(s, 'launcher', 'Latest', ''))).toBe('aaaa002');
    expect(hashOf(resolveComponent(s, 'launcher', 'Latest', '|latest'))).toBe('dddd001');
    expect(resolveComponent(s, 'launcher', 'Latest', 'release/9.9|latest')).toBeUndefined();
  });

  it('Select: a commit as {branch}|{shortHash}, a bare short or full hash, or a build URL', () => {
    expect(hashOf(resolveComponent(s, 'launcher', 'Select', 'master|aaaa001'))).toBe('aaaa001');
    expect(resolveComponent(s, 'launcher', 'Select', 'aaaa001')).toMatchObject({ branchName: 'master', shortHash: 'aaaa001' });
    expect(hashOf(resolveComponent(s, 'launcher', 'Select', `aaaa001${'0'.repeat(33)}`))).toBe('aaaa001');
    expect(hashOf(resolveComponent(s, 'launcher', 'Select', 'https://builds.example/launcher-8.1.zip'))).toBe('aaaa002');
    expect(resolveComponent(s, 'launcher', 'Select', 'master|fffffff')).toBeUndefined();
    expect(resolveComponent(s, 'launcher', 'Select', '')).toBeNull();
  });

  it('LatestBuild: the commit of the newest build; None: not installed', () => {
    expect(hashOf(resolveComponent(s, 'launcher', 'LatestBuild', ''))).toBe('aaaa001');
    expect(resolveComponent(s, 'siteMaster', 'LatestBuild', '')).toBeUndefined();
    expect(resolveComponent(s, 'launcher', 'None', 'master|aaaa001')).toBeNull();
    expect(resolveComponent(s, 'launcher', undefined, undefined)).toBeNull();
  });
});

describe('resolveMachineConfig', () => {
  it('answers every component, the version map of the installed ones and the unresolved ones', () => {
    const resolved = resolveMachineConfig(snapshot(), {
      launcherVersionMode: 'Latest',
      launcherVersion: 'develop|latest',
      siteMasterVersionMode: 'Select',
      siteMasterVersion: 'master|0000000',
      deployerVersionMode: 'None',
    });
    expect(resolved.versions).toEqual({ launcher: 'develop|dddd001' });
    expect(resolved.unresolved).toEqual(['siteMaster']);
    expect(resolved.components.launcher).toMatchObject({ shortHash: 'dddd001' });
    expect(resolved.components.deployer).toBeNull();
    expect(Object.keys(resolved.components)).toHaveLength(19);
  });

  it('writes and reads version refs', () => {
    expect(versionRef({ branchName: 'release/8.1', shortHash: 'abc1234' })).toBe('release/8.1|abc1234');
    expect(parseVersionRef('release/8.1|abc1234')).toEqual({ branchName: 'release/8.1', shortHash: 'abc1234' });
    expect(parseVersionRef('abc1234')).toEqual({ branchName: '', shortHash: 'abc1234' });
  });
});

describe('withOverrides (the updater machine mode)', () => {
  const s = snapshot();
  const account = { launcherVersionMode: 'Latest', launcherVersion: 'master|latest', siteMasterVersionMode: 'None', siteMasterVersion: '' };

  it("resolves the account's config with the machine's overridden components in place; others stay the account's", () => {
    const config = withOverrides(account, { launcher: { mode: 'Select', version: 'master|aaaa001' } });
    expect(resolveMachineConfig(s, config).versions.launcher).toBe('master|aaaa001');
    expect(config.siteMasterVersionMode).toBe('None');
    expect(account.launcherVersionMode).toBe('Latest');
  });

  it('no overrides: the account config itself; an override following Latest on a branch takes its head', () => {
    expect(withOverrides(account, {})).toBe(account);
    expect(withOverrides(account, undefined)).toBe(account);
    expect(resolveMachineConfig(s, withOverrides(account, { launcher: { mode: 'Latest', version: 'develop|latest' } })).versions.launcher).toBe('develop|dddd001');
    expect(resolveMachineConfig(s, withOverrides(account, { launcher: { mode: 'None', version: '' } })).versions.launcher).toBeUndefined();
  });
});
