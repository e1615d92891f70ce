/** Unit tests of the account rules' normalisation (spec 1 §4, §5) and the shared helpers of the contracts. */
import { describe, expect, it } from 'vitest';
import { ZLicenseConfig, ZMachineConfig, launcherUrl, normaliseBackupTimes, toBackupTime, toUrlFriendlyName } from '@fleet/contracts';
import { normaliseLicense, normaliseMachineConfig, normaliseProperties, readSection } from './account-rules.js';

describe('backup times (spec 1 §5)', () => {
  it.each([
    ['00:00', '00:00'],
    ['23:30', '23:30'],
    ['7:30', '07:30'],
    ['07:30:00', '07:30'],
    ['2026-01-01T05:00:00Z', '05:00'],
    ['2026-01-01T06:30:00+01:00', '05:30'],
    ['07:15', null],
    ['24:00', null],
    ['07:30:10', null],
    ['half past seven', null],
    ['', null],
  ])('%s is %s', (value, expected) => {
    expect(toBackupTime(value)).toBe(expected);
  });

  it('drops invalid and duplicate times and sorts the rest', () => {
    expect(normaliseBackupTimes(['22:00', '5:00', '05:00', '05:10', 'x', '01:30'])).toEqual(['01:30', '05:00', '22:00']);
  });
});

describe('URL names and launcher URLs (spec 1 §2, §5)', () => {
  it('derives the URL name: lowercase, spaces and hyphens removed, non-word characters removed', () => {
    expect(toUrlFriendlyName('Contoso Telecom - North (EU) #2')).toBe('contosotelecomnortheu2');
    expect(toUrlFriendlyName('  ')).toBe('');
  });

  it('uses https only with SSL', () => {
    expect(launcherUrl('acme', true)).toBe('https://acme.fleet.example.net');
    expect(launcherUrl('acme', false)).toBe('http://acme.fleet.example.net');
  });
});

describe('normalisation', () => {
  it('forces add-on accounts unmanaged without auto test, branch or white glove; others have no parent', () => {
    const base = { classId: 200, parentId: 3, managed: true, autoTest: true, autoTestBranch: 'develop', whiteGlove: true, maintainer: '' };
    expect(normaliseProperties(base)).toMatchObject({ managed: false, autoTest: false, autoTestBranch: null, whiteGlove: false, parentId: 3, maintainer: 'devops@fleet.example' });
    expect(normaliseProperties({ ...base, classId: 1, autoTest: false })).toMatchObject({ parentId: null, autoTestBranch: null, managed: true });
  });

  it('forces maxSites to 1 for AllInOne and resolves a missing instance type', () => {
    const license = ZLicenseConfig.parse({ maxSites: 8 });
    expect(normaliseLicense(license, 4)).toMatchObject({ instancePolicy: 'AllInOne', maxSites: 1, cloudInstanceType: 4 });
    expect(normaliseLicense({ ...license, instancePolicy: 'InstancePerSiteMaster' }, 4).maxSites).toBe(8);
  });

  it('applies the version and library mode rules (spec 1 §4, spec 3 §4)', () => {
    const c = normaliseMachineConfig(
      ZMachineConfig.parse({
        launcherVersionMode: 'Select',
        siteMasterVersionMode: 'Latest',
        siteMasterVersion: 'develop',
        clientVersionMode: 'None',
        clientVersion: 'x|y',
        accountLibraryMode: 'Select',
        accountLibraryFile: 12,
        mainLibraryMode: 'LatestProd',
        mainLibraryFiles: [1, 2],
        includeSampleData: false,
        sampleDataFile: 'campus-demo.zip',
      }),
    );
    expect(c).toMatchObject({
      launcherVersionMode: 'None',
      launcherVersion: '',
      siteMasterVersion: 'develop|latest',
      smchkVersion: 'master|latest',
      clientVersion: '',
      deployerVersionMode: 'None',
      accountLibraryFiles: [12],
      accountLibraryFile: 12,
      mainLibraryFiles: [],
      sampleDataFile: null,
      enableSsl: true,
      keyType: 'Default',
      useUniqueKey: false,
    });
  });

  it('reads a stored section with defaults for missing fields and for fields it refuses', () => {
    const read = readSection(ZLicenseConfig, { maxSites: 'lots', cloudCredits: 250 }, { expirationTime: null });
    expect(read).toMatchObject({ maxSites: 10, cloudCredits: 250, expirationTime: null, maxReportUsers: 50 });
  });
});
