import { describe, expect, it } from 'vitest';
import { consoleSchemaValues } from './console-values.js';
import { ZBackupConfig, ZLicenseConfig, ZMachineConfig } from './account-sections.js';

describe('the schema values the console is built with', () => {
  it('survive JSON as they are (Vite defines them as JSON): no Date, undefined or function', () => {
    const values = consoleSchemaValues();
    expect(JSON.parse(JSON.stringify(values))).toEqual(values);
  });

  it('are defaults the schemas accept back unchanged, and name each setting a template holds', () => {
    const values = consoleSchemaValues();
    expect(ZMachineConfig.parse(values.machineConfigDefaults)).toEqual(values.machineConfigDefaults);
    expect(ZLicenseConfig.parse(values.licenseConfigDefaults)).toEqual(values.licenseConfigDefaults);
    expect(ZBackupConfig.parse({ ...values.backupConfigDefaults, times: ['05:00'] }).times).toEqual(['05:00']);
    expect(values.templateKeys['backup-settings']).toEqual(Object.keys(values.backupConfigDefaults));
    expect(values.templateKeys['license-settings']).toEqual(expect.arrayContaining(['maxSites', 'cloudInstanceType']));
  });
});
