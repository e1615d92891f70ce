/**
 * The mapping between templates and the section forms (spec 1 §3 Template: a
 * general template flattens contact and billing with the prefixes contact and
 * billing; §5 version-only filter) and the dialog's list filters.
 */
import { describe, expect, it } from 'vitest';
import type { TTemplate } from '@fleet/contracts';
import {
  filterTemplates,
  formValuesToTemplate,
  generalTemplateToProperties,
  kindsForClass,
  propertiesToGeneralTemplate,
  templateToFormValues,
} from './template-values';

const meta = (over: Partial<TTemplate> = {}): TTemplate => ({
  id: 7,
  type: 'general',
  name: 'Internal sandbox',
  isPublic: true,
  isTemplate: true,
  account: null,
  owner: 'admin',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});

const generalTemplate = {
  classId: 4,
  description: 'Trials',
  customer: 'Acme',
  managed: false,
  whiteGlove: true,
  autoTest: false,
  autoTestBranch: null,
  maintainer: 'ops@acme.example',
  contactName: 'Pat Lee',
  contactEmail: 'pat@acme.example',
  contactPhone1: '+1 555 0100',
  contactPhone2: null,
  billingPeriod: 'Monthly',
  billingAmount: 150,
};

const propertiesForm = {
  classId: 4,
  description: 'Trials',
  customer: 'Acme',
  managed: false,
  whiteGlove: true,
  autoTest: false,
  autoTestBranch: null,
  maintainer: 'ops@acme.example',
  contact: { name: 'Pat Lee', email: 'pat@acme.example', phone1: '+1 555 0100', phone2: null },
  billing: { period: 'Monthly', amount: 150 },
};

describe('general template ⇄ properties form', () => {
  it('nests contact and billing when loading and flattens them when saving', () => {
    expect(generalTemplateToProperties(generalTemplate)).toEqual(propertiesForm);
    expect(propertiesToGeneralTemplate(propertiesForm)).toEqual(generalTemplate);
  });

  it("never carries the account's identity, parent or version into a template", () => {
    const saved = propertiesToGeneralTemplate({ ...propertiesForm, name: 'Acme', urlFriendlyName: 'acme', parentId: 12, version: 3 });
    expect(saved).toEqual(generalTemplate);
    expect(Object.keys(templateToFormValues('general', meta(generalTemplate)))).not.toContain('name');
  });

  it('leaves out fields the template or the form lacks, and nulls of fields that cannot be null', () => {
    expect(generalTemplateToProperties({ billingAmount: 20 })).toEqual({ billing: { amount: 20 } });
    expect(propertiesToGeneralTemplate({ description: null, contact: { name: 'Pat', phone1: null } })).toEqual({
      contactName: 'Pat',
      contactPhone1: null,
    });
  });

  it('keeps an existing account out of or in the add-on class', () => {
    const addOnTemplate = meta({ ...generalTemplate, classId: 200 });
    expect(templateToFormValues('general', addOnTemplate, { existingAccount: true, accountClassId: 1 })).not.toHaveProperty('classId');
    expect(templateToFormValues('general', meta(generalTemplate), { existingAccount: true, accountClassId: 200 })).not.toHaveProperty('classId');
    expect(templateToFormValues('general', meta(generalTemplate), { existingAccount: true, accountClassId: 1 })).toMatchObject({ classId: 4 });
    expect(templateToFormValues('general', addOnTemplate, { accountClassId: 1 })).toMatchObject({ classId: 200 });
  });
});

describe('license, instance and backup templates', () => {
  it('loads a license template without its own fields and records it as the matched template', () => {
    const t = meta({ type: 'license-settings', name: 'Enterprise IPSM', instancePolicy: 'InstancePerSiteMaster', cloudInstanceType: 5, maxSites: 10 });
    expect(templateToFormValues('license-settings', t)).toEqual({
      instancePolicy: 'InstancePerSiteMaster',
      cloudInstanceType: 5,
      maxSites: 10,
      matchedTemplate: 'Enterprise IPSM',
    });
    const account = meta({ ...t, isTemplate: false, account: { id: 3, name: 'Acme' } });
    expect(templateToFormValues('license-settings', account)).toMatchObject({ matchedTemplate: null });
  });

  it('saves a license without expiration, matched template or version; an emptied count takes the default', () => {
    const values = formValuesToTemplate('license-settings', {
      instancePolicy: 'AllInOne',
      maxAreas: null,
      redisCloudInstanceType: null,
      expirationTime: '2026-01-01T00:00:00.000Z',
      matchedTemplate: 'x',
      version: 4,
      features: ['Rack Visualization'],
    });
    expect(values).toEqual({ instancePolicy: 'AllInOne', redisCloudInstanceType: null, features: ['Rack Visualization'] });
  });

  it('loads an instance template with its component versions; an existing account keeps its locked fields', () => {
    const t = meta({
      type: 'instance-settings',
      name: 'v8.1 EU',
      region: 'eu-west-1',
      vmImageName: 'irmn-8.1.3-win2022-euw1',
      enableSsl: false,
      includeSampleData: true,
      sampleDataFile: 'demo.zip',
      launcherVersionMode: 'Select',
      launcherVersion: 'master|abc1234',
      autoStopTime: null,
      keyType: 'Unique',
    });
    expect(templateToFormValues('instance-settings', t)).toEqual({
      region: 'eu-west-1',
      vmImageName: 'irmn-8.1.3-win2022-euw1',
      enableSsl: false,
      includeSampleData: true,
      sampleDataFile: 'demo.zip',
      launcherVersionMode: 'Select',
      launcherVersion: 'master|abc1234',
      keyType: 'Unique',
    });
    expect(templateToFormValues('instance-settings', t, { existingAccount: true })).toEqual({
      launcherVersionMode: 'Select',
      launcherVersion: 'master|abc1234',
      keyType: 'Unique',
    });
    const fixedStop = meta({ type: 'instance-settings', autoStopTime: '2030-01-01T00:00:00.000Z' });
    expect(templateToFormValues('instance-settings', fixedStop)).toEqual({ autoStopTime: '2030-01-01T00:00:00.000Z' });
  });

  it("saves an instance template without the form's auto-stop moment", () => {
    expect(
      formValuesToTemplate('instance-settings', { region: 'us-east-1', autoStopTime: '2030-01-01T00:00:00.000Z', deployerVersionMode: 'None', uiOnly: 1 }),
    ).toEqual({ region: 'us-east-1', deployerVersionMode: 'None' });
  });

  it('maps backup settings field for field', () => {
    const backup = { times: ['05:00', '17:30'], weeklyBackupDay: 3, monthlyBackupDay: 28, manualEolAction: 'Delete', weeklyDaysToRetain: 28 };
    expect(formValuesToTemplate('backup-settings', { ...backup, version: 2 })).toEqual(backup);
    expect(templateToFormValues('backup-settings', meta({ type: 'backup-settings', ...backup }))).toEqual(backup);
  });
});

describe('filters and kinds', () => {
  const items = [
    meta({ id: 1, name: 'v8.1 standard' }),
    meta({ id: 2, name: 'V9 upper' }),
    meta({ id: 3, name: 'Linux trial' }),
    meta({ id: 4, name: 'vintage account', isTemplate: false, account: { id: 4, name: 'vintage account' } }),
  ];
  const names = (filter: Parameters<typeof filterTemplates>[1]) => filterTemplates(items, filter).map((t) => t.name);

  it("keeps templates or template accounts, names starting with 'v', and names holding the search in any case", () => {
    expect(names({ search: '', versionOnly: false, source: 'template' })).toEqual(['v8.1 standard', 'V9 upper', 'Linux trial']);
    expect(names({ search: '', versionOnly: true, source: 'template' })).toEqual(['v8.1 standard']);
    expect(names({ search: ' TRIAL ', versionOnly: false, source: 'template' })).toEqual(['Linux trial']);
    expect(names({ search: '', versionOnly: true, source: 'account' })).toEqual(['vintage account']);
    expect(names({ search: 'x', versionOnly: false, source: 'account' })).toEqual([]);
  });

  it('offers no instance or backup kind to an add-on account', () => {
    expect(kindsForClass(200)).toEqual(['general', 'license-settings']);
    expect(kindsForClass(1)).toEqual(['general', 'license-settings', 'instance-settings', 'backup-settings']);
    expect(kindsForClass(undefined)).toHaveLength(4);
  });
});
