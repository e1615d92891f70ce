/** The create form's values to the creation payload of spec 1 §3, and server errors back to fields. */
import { describe, expect, it } from 'vitest';
import { CLASS_ADD_ON, ZBackupConfig, ZCreateAccountRequest, ZLicenseConfig, ZMachineConfig } from '@fleet/contracts';
import { fieldOfCreationError, toCreationPayload, type CreateFormValues } from './creation-payload';

function values(over: Partial<CreateFormValues> = {}): CreateFormValues {
  return {
    properties: {
      classId: 1,
      parentId: null,
      name: 'Acme Corp',
      urlFriendlyName: 'acmecorp',
      description: '',
      customer: 'Acme',
      contact: { name: 'Ann', email: 'ann@acme.test', phone1: '', phone2: null },
      maintainer: 'devops@fleet.example',
      billing: { period: 'Monthly', amount: 12 },
      managed: true,
      whiteGlove: false,
      autoTest: false,
      autoTestBranch: '',
    },
    license: ZLicenseConfig.parse({ instancePolicy: 'InstancePerSiteMaster', maxSites: 3 }),
    instance: { ...ZMachineConfig.parse({}), vmImageName: 'img-1', mainLibraryFiles: [4, 5], accountLibraryFiles: [9] },
    backup: ZBackupConfig.parse({ times: ['05:00'] }),
    idle: { idleSchedules: [] },
    sites: {
      sites: [
        { name: 'Main', urlFriendlyName: 'main', domainName: '', port: 8080 },
        { name: 'Second', urlFriendlyName: 'second', domainName: 'two', port: 8081 },
        { name: '  ', urlFriendlyName: '', domainName: '', port: 8080 },
      ],
    },
    ...over,
  };
}

describe('toCreationPayload', () => {
  it('flattens contact and billing, takes the first site as site master and every named site for InstancePerSiteMaster', () => {
    const payload = toCreationPayload(values());
    expect(payload).toMatchObject({
      contactName: 'Ann',
      contactEmail: 'ann@acme.test',
      contactPhone1: null,
      billingPeriod: 'Monthly',
      billingAmount: 12,
      autoTestBranch: null,
      siteMasterName: 'Main',
      siteMasterUrlFriendlyName: 'main',
      siteMasterPort: 8080,
      mainLibraryFiles: [4, 5],
      accountLibraryFile: 9,
    });
    expect(payload.sites?.map((s) => s.urlFriendlyName)).toEqual(['main', 'second']);
    expect(ZCreateAccountRequest.safeParse(payload).success).toBe(true);
  });

  it('sends no site list for AllInOne and only properties and license for an add-on', () => {
    const allInOne = toCreationPayload(values({ license: ZLicenseConfig.parse({ instancePolicy: 'AllInOne' }) }));
    expect(allInOne.sites).toEqual([]);
    const addOn = toCreationPayload(values({ properties: { ...values().properties, classId: CLASS_ADD_ON, parentId: 3 } }));
    expect(addOn).not.toHaveProperty('machineConfig');
    expect(addOn).not.toHaveProperty('sites');
    expect(addOn.parentId).toBe(3);
  });
});

describe('fieldOfCreationError', () => {
  it.each([
    ['contactEmail', { section: 'properties', name: ['contact', 'email'] }],
    ['name', { section: 'properties', name: ['name'] }],
    ['licenseConfig.addOnSiteName', { section: 'license', name: ['addOnSiteName'] }],
    ['machineConfig.vmImageName', { section: 'instance', name: ['vmImageName'] }],
    ['backupConfig.times.1', { section: 'backup', name: ['times', 1] }],
    ['sites.1.urlFriendlyName', { section: 'sites', name: ['sites', 1, 'urlFriendlyName'] }],
    ['siteMasterName', { section: 'sites', name: ['sites', 0, 'name'] }],
  ])('%s', (propertyName, expected) => {
    expect(fieldOfCreationError(propertyName)).toEqual(expected);
  });

  it('has no field for a whole-list error or the library ids', () => {
    expect(fieldOfCreationError('sites')).toBeUndefined();
    expect(fieldOfCreationError('mainLibraryFiles')).toBeUndefined();
  });
});
