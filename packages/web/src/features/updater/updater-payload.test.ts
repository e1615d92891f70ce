import { describe, expect, it } from 'vitest';
import { DEFAULT_WAVES, type TTemplate } from '@fleet/contracts';
import {
  ordinal,
  thresholdText,
  changedSoftwares,
  initialVersionsValues,
  templateToVersionsValues,
  toSoftwareUpdateConfig,
  versionsToTemplateSettings,
  waveSizes,
} from './updater-payload';

describe('software update payload', () => {
  it('starts with every software on Skip and changes nothing', () => {
    const config = toSoftwareUpdateConfig(initialVersionsValues(), 'account');
    expect(changedSoftwares(config)).toEqual([]);
    expect(config.launcherVersionMode).toBe('Skip');
    expect(config.accountLibraryFile).toBeNull();
  });

  it('sends versions only for Latest and Select, and library modes only in account mode', () => {
    const values = {
      ...initialVersionsValues(),
      launcherVersionMode: 'Select',
      launcherVersion: 'master|abc1234',
      clientVersionMode: 'None',
      clientVersion: 'stale',
      mainLibraryMode: 'Select',
      mainLibraryFiles: [3, 4],
      accountLibraryMode: 'Select',
      accountLibraryFiles: [9],
    };
    const account = toSoftwareUpdateConfig(values, 'account');
    expect(account).toMatchObject({ launcherVersion: 'master|abc1234', clientVersionMode: 'None', clientVersion: '', mainLibraryFiles: [3, 4], accountLibraryFile: 9 });
    expect(changedSoftwares(account)).toEqual(['launcher', 'client', 'mainLibrary', 'accountLibrary']);
    const machine = toSoftwareUpdateConfig(values, 'machine');
    expect(machine.mainLibraryMode).toBeUndefined();
    expect(changedSoftwares(machine)).toEqual(['launcher', 'client']);
  });

  it('loads a template\'s versions and saves the block\'s changed softwares as a template', () => {
    const template = { id: 1, type: 'instance-settings', name: 't', launcherVersionMode: 'Latest', launcherVersion: 'dev|latest', clientVersionMode: 'Odd' } as unknown as TTemplate;
    const values = templateToVersionsValues(template);
    expect(values.launcherVersionMode).toBe('Latest');
    expect(values.clientVersionMode).toBe('Skip');
    expect(versionsToTemplateSettings({ ...initialVersionsValues(), ...values })).toEqual({ launcherVersionMode: 'Latest', launcherVersion: 'dev|latest' });
  });
});

describe('waves', () => {
  it('splits targets into the default waves: 1, 10 %, the rest', () => {
    expect(waveSizes(DEFAULT_WAVES, 50)).toEqual([1, 5, 44]);
    expect(waveSizes(DEFAULT_WAVES, 1)).toEqual([1]);
    expect(waveSizes(DEFAULT_WAVES, 2)).toEqual([1, 1]);
    expect(waveSizes([], 3)).toEqual([3]);
  });
});

describe('thresholdText', () => {
  it('says at which failure of a wave the rollout halts (threshold + 1), with English ordinals', () => {
    expect(thresholdText({ maxFailedTargets: 1, maxFailedPercent: 10 })).toBe('Halts at the 2nd failure of a wave, or when more than 10 % of it fails');
    expect(thresholdText({ maxFailedTargets: 0, maxFailedPercent: 0 })).toBe('Halts at the 1st failure of a wave, or when more than 0 % of it fails');
    expect([3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual(['3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']);
  });
});

