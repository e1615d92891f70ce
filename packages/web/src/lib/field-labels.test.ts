/** Names for people (issue 24 point 8): components and fields by their labels, keys that have none as they are. */
import { describe, expect, it } from 'vitest';
import { CONFIG_COMPONENTS } from '@fleet/contracts';
import { componentLabel, fieldLabel, isVersionField, wordsOf } from './field-labels';

describe('component labels', () => {
  it("names components as the Component Versions card does (spec 1 §2), an unknown key as it is", () => {
    expect(componentLabel('launcher')).toBe('Launcher');
    expect(componentLabel('siteMaster')).toBe('Site Master');
    expect(componentLabel('smchk')).toBe('Site Master Validator');
    expect(componentLabel('sqlExport')).toBe('Relational Export');
    expect(componentLabel('someNewThing')).toBe('someNewThing');
    for (const c of CONFIG_COMPONENTS) expect(componentLabel(c)).not.toBe(c);
  });
});

describe('field labels', () => {
  it("names a component's version fields by the component's label", () => {
    expect(fieldLabel('launcherVersion')).toBe('Launcher version');
    expect(fieldLabel('siteMasterVersionMode')).toBe('Site Master version mode');
    expect(fieldLabel('smchkVersion')).toBe('Site Master Validator version');
    expect(fieldLabel('deployerVersionMode')).toBe('Deployer version mode');
  });

  it('names the form fields as the forms label them, an entity its own fields', () => {
    expect(fieldLabel('maxUsers')).toBe('Maximum users');
    expect(fieldLabel('cloudCredits')).toBe('Maximum Credits');
    expect(fieldLabel('contactPhone1')).toBe('Phone 1');
    expect(fieldLabel('dailyDaysToRetain')).toBe('Daily days to retain');
    expect(fieldLabel('sqlExportUseCloudDb')).toBe('Cloud DB for SQL export');
    expect(fieldLabel('manualMaintenance')).toBe('Manual maintenance');
    expect(fieldLabel('classId')).toBe('MMA class');
    expect(fieldLabel('name', 'Account')).toBe('Display name');
    expect(fieldLabel('name', 'Account 12')).toBe('Display name');
    expect(fieldLabel('name', 'MmaClass')).toBe('Name');
  });

  it('writes other names in words and leaves configuration keys as they are', () => {
    expect(fieldLabel('machineIds')).toBe('Machine ids');
    expect(fieldLabel('rolloutId')).toBe('Rollout id');
    expect(fieldLabel('maxFailedPercent')).toBe('Max failed percent');
    expect(fieldLabel('fooVersion')).toBe('Foo version');
    expect(fieldLabel('Launcher:Port')).toBe('Launcher:Port');
    expect(fieldLabel('idleSchedules.0.stopAt')).toBe('idleSchedules.0.stopAt');
    expect(fieldLabel('toString')).toBe('To string');
    expect(wordsOf('HTTPServer_port')).toBe('Http server port');
  });

  it("knows which fields hold a component's version", () => {
    expect(isVersionField('launcherVersion')).toBe(true);
    expect(isVersionField('launcherVersionMode')).toBe(false);
    expect(isVersionField('marketingVersion')).toBe(false);
    expect(isVersionField('bundleVersion')).toBe(false);
  });
});
