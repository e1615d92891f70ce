/**
 * Configuration catalogues and templates of the seeded fleet: about 40 component
 * config definitions (spec 2 §3, spec 3 §2.5: rootKey.subKey, dataType null for
 * string, SaaS/on-prem/Linux defaults, some with the variables protocol,
 * account_url_name, site_url_name, site_port...), about 20 deployer config
 * definitions, and templates of the kinds general, license-settings,
 * instance-settings and backup-settings (spec 1 §2 Manage Templates).
 */
import type { DbOrTx } from '../db/client.js';
import { componentConfigs, deployerConfigs, templates } from '../db/schema.js';
import { SEED_IMAGES } from './catalogue.js';
import { DEVOPS_EMAIL, PROVIDER_DOMAIN } from './names.js';
import { BASE_DATE, daysBefore, type Rng } from './random.js';
import { backupConfig, licenseConfig, machineConfig } from './settings.js';
import type { SoftwareCatalogue } from './software.js';

type DataType = null | 'number' | 'boolean' | 'json';
/** [rootKey, subKey, dataType, protected, siteSpecific, saas, onPrem, linux, since, deprecatedAt] */
type ComponentRow = [string, string, DataType, boolean, boolean, string | null, string | null, string | null, string?, string?];

const url = `{protocol}://{account_url_name}.${PROVIDER_DOMAIN}`;
const siteUrl = `{protocol}://{site_url_name}-{account_url_name}.${PROVIDER_DOMAIN}:{site_port}`;

export const COMPONENT_CONFIGS: readonly ComponentRow[] = [
  ['launcher', 'publicUrl', null, false, false, url, '{protocol}://{account_name}', null],
  ['launcher', 'port', 'number', false, false, '443', '80', '8443'],
  ['launcher', 'sessionTimeoutMinutes', 'number', false, false, '30', '60', null],
  ['launcher', 'enableSso', 'boolean', false, false, 'false', 'false', null, '8.1'],
  ['launcher', 'ssoProviders', 'json', false, false, '[]', '[]', null, '8.1'],
  ['launcher', 'maxUploadMb', 'number', false, false, '200', '500', null],
  ['siteMaster', 'siteName', null, false, true, '{site_name}', '{site_name}', null],
  ['siteMaster', 'siteUrl', null, false, true, siteUrl, '{protocol}://{site_url_name}:{site_port}', null],
  ['siteMaster', 'port', 'number', false, true, '{site_port}', '{site_port}', null],
  ['siteMaster', 'maxMemoryMb', 'number', false, false, '4096', '8192', '3072'],
  ['siteMaster', 'dataPath', null, false, false, 'D:\\IRMN\\Data', 'C:\\IRMN\\Data', '/var/lib/irmn/data'],
  ['siteMaster', 'syncIntervalSeconds', 'number', false, false, '30', '60', null, '7.6', '8.2'],
  ['database', 'connectionString', null, true, true, 'Server=localhost;Database={account_url_name}_{site_url_name};Integrated Security=true', null, 'Host=localhost;Database={account_url_name}_{site_url_name}'],
  ['database', 'poolSize', 'number', false, false, '50', '100', null],
  ['database', 'commandTimeoutSeconds', 'number', false, false, '120', '300', null],
  ['mongo', 'uri', null, true, false, 'mongodb://localhost:27017/{account_url_name}', 'mongodb://localhost:27017/irmn', null],
  ['rabbitMq', 'host', null, false, false, 'localhost', 'localhost', null],
  ['rabbitMq', 'virtualHost', null, false, false, '{account_url_name}', 'irmn', null],
  ['reporting', 'engine', null, false, false, 'ssrs', 'ssrs', 'jasper'],
  ['reporting', 'maxConcurrentReports', 'number', false, false, '4', '8', null],
  ['pdfExport', 'pageSize', null, false, false, 'A4', 'Letter', null],
  ['pdfExport', 'dpi', 'number', false, false, '150', '300', null],
  ['sqlExport', 'targetSchema', null, false, false, 'export', 'export', null],
  ['sqlExport', 'intervalMinutes', 'number', false, false, '60', '15', null],
  ['smchk', 'schedule', null, false, false, '0 3 * * *', '0 2 * * 0', null],
  ['populate', 'batchSize', 'number', false, false, '500', '2000', null],
  ['client', 'theme', null, false, false, 'light', 'light', null],
  ['client', 'features', 'json', false, false, '{"mapView":true,"floorPlans":true}', '{"mapView":false,"floorPlans":true}', null, '8.1'],
  ['auditChangeLog', 'retentionDays', 'number', false, false, '365', '730', null],
  ['linkware', 'apiUrl', null, false, false, 'https://linkware.example.com/api', null, null],
  ['discovery', 'snmpCommunity', null, true, false, 'public', 'public', null],
  ['serviceNow', 'instanceUrl', null, false, false, 'https://{account_url_name}.service-now.example.com', null, null, '8.0'],
  ['serviceNow', 'syncIntervalMinutes', 'number', false, false, '15', '15', null, '8.0'],
  ['commScope', 'imvHost', null, false, false, 'imv.{account_url_name}.example.com', null, null],
  ['apSensing', 'endpoint', null, false, false, 'https://dts.example.com/{account_url_name}', null, null, '8.2'],
  ['voltServer', 'endpoint', null, false, false, 'https://voltserver.example.com', null, null, '8.2'],
  ['cadImport', 'maxFileSizeMb', 'number', false, false, '250', '1000', null],
  ['logging', 'level', null, false, false, 'Information', 'Warning', 'Warning'],
  ['logging', 'retainDays', 'number', false, false, '14', '30', null],
  ['smtp', 'from', null, false, false, `noreply@{account_url_name}.${PROVIDER_DOMAIN}`, null, null],
  ['smtp', 'host', null, true, false, `smtp.${PROVIDER_DOMAIN}`, null, null],
  ['grafana', 'enabled', 'boolean', false, false, 'true', 'false', null],
];

/** [rootKey, subKey, dataType, protected, default, since, deprecatedAt] */
type DeployerRow = [string, string, DataType, boolean, string | null, string?, string?];

export const DEPLOYER_CONFIGS: readonly DeployerRow[] = [
  ['deployer', 'retryCount', 'number', false, '3'],
  ['deployer', 'timeoutMinutes', 'number', false, '60'],
  ['deployer', 'keepReleases', 'number', false, '3'],
  ['deployer', 'backupBeforeDeploy', 'boolean', false, 'true'],
  ['deployer', 'parallelSites', 'number', false, '2', '8.1'],
  ['deployer', 'channel', null, false, 'stable'],
  ['iis', 'appPoolRecycleMinutes', 'number', false, '1740'],
  ['iis', 'enable32Bit', 'boolean', false, 'false', '7.6', '8.1'],
  ['windows', 'updateWindow', null, false, '02:00-04:00'],
  ['s3', 'bucket', null, true, 'fleet-backups'],
  ['s3', 'region', null, false, 'us-east-1'],
  ['notifications', 'email', null, false, DEVOPS_EMAIL],
  ['notifications', 'webhookUrl', null, true, null],
  ['health', 'checkIntervalSeconds', 'number', false, '60'],
  ['health', 'failThreshold', 'number', false, '3'],
  ['backup', 'compression', 'boolean', false, 'true'],
  ['backup', 'parallelUploads', 'number', false, '4'],
  ['monitoring', 'grafanaAgent', 'boolean', false, 'true'],
  ['monitoring', 'tags', 'json', false, '{"team":"devops"}', '8.1'],
  ['smokeTest', 'suite', null, false, 'basic', '8.2'],
];

/** Inserts the component and deployer config catalogues. */
export async function seedConfigCatalogues(db: DbOrTx, irmnVersionIds: Map<string, number>): Promise<void> {
  const version = (name: string | undefined) => (name ? (irmnVersionIds.get(name) ?? null) : null);
  await db.insert(componentConfigs).values(
    COMPONENT_CONFIGS.map(([rootKey, subKey, dataType, isProtected, siteSpecific, saas, onPrem, linux, since, deprecated]) => ({
      rootKey,
      subKey,
      dataType,
      protected: isProtected,
      siteSpecific,
      versionId: version(since),
      deprecatedAtVersionId: version(deprecated),
      saasDefaultValue: saas,
      onPremDefaultValue: onPrem,
      linuxSpecificValue: linux,
    })),
  );
  await db.insert(deployerConfigs).values(
    DEPLOYER_CONFIGS.map(([rootKey, subKey, dataType, isProtected, defaultValue, since, deprecated]) => ({
      rootKey,
      subKey,
      dataType,
      protected: isProtected,
      versionId: version(since),
      deprecatedAtVersionId: version(deprecated),
      defaultValue,
    })),
  );
}

/**
 * Inserts 2 to 4 templates of each kind. Values are flattened settings of that
 * kind; names starting with 'v' are the version templates (spec 1 §5). Private
 * templates belong to `adminId` (public when there is no admin user).
 * Returns the license template names, which accounts record as `matchedTemplate`.
 */
export async function seedTemplates(db: DbOrTx, rng: Rng, ctx: { software: SoftwareCatalogue; adminId: number | null }): Promise<string[]> {
  const at = daysBefore(90);
  const row = (type: string, name: string, values: Record<string, unknown>, isPublic = true) => ({
    type,
    name,
    isPublic: isPublic || ctx.adminId === null,
    ownerId: isPublic ? null : ctx.adminId,
    values,
    createdAt: at,
    updatedAt: daysBefore(rng.int(1, 80)),
  });
  const general = (classId: number, billingPeriod: string, billingAmount: number) => ({
    classId,
    managed: true,
    whiteGlove: classId === 5,
    autoTest: false,
    autoTestBranch: null,
    maintainer: DEVOPS_EMAIL,
    contactName: '',
    contactEmail: '',
    contactPhone1: null,
    contactPhone2: null,
    billingPeriod,
    billingAmount,
  });
  const license = (policy: 'AllInOne' | 'InstancePerSiteMaster', type: number, large: boolean) => {
    const values = licenseConfig(rng, {
      instancePolicy: policy,
      cloudInstanceType: type,
      sites: policy === 'AllInOne' ? 1 : 10,
      expirationTime: null,
      features: large ? ['Fiber Management', 'Rack Visualization', 'Change Management', 'Advanced Reporting'] : ['Rack Visualization'],
      reportingCategories: large ? ['Capacity', 'Inventory', 'Circuits'] : ['Inventory'],
      matchedTemplate: null,
      large,
    });
    delete values.expirationTime;
    delete values.matchedTemplate;
    return values;
  };
  const instance = (line: '8.1' | '8.2', imageName: string, production: boolean) => {
    const image = SEED_IMAGES.find((i) => i.name === imageName);
    return machineConfig(rng, ctx.software, {
      region: image?.region ?? 'us-east-1',
      vmImageName: imageName,
      line,
      osType: image?.osType ?? 'Windows',
      integrations: production ? ['linkware', 'serviceNow'] : [],
      mainLibraryFiles: [],
      accountLibraryFiles: [],
      production,
      createdAt: BASE_DATE,
    });
  };
  const licenseNames = ['v8.1 standard license', 'Enterprise IPSM', 'Small site AllInOne'];
  await db.insert(templates).values([
    row('general', 'Customer production defaults', general(5, 'Yearly', 2400)),
    row('general', 'Internal sandbox', general(1, 'Biweekly', 10)),
    row('general', 'Staging for customer trials', general(4, 'Monthly', 150), false),
    row('license-settings', licenseNames[0] ?? '', license('AllInOne', 4, false)),
    row('license-settings', licenseNames[1] ?? '', license('InstancePerSiteMaster', 5, true)),
    row('license-settings', licenseNames[2] ?? '', license('AllInOne', 2, false), false),
    row('instance-settings', 'v8.1 standard', instance('8.1', 'irmn-8.1.3-win2022-use1', true)),
    row('instance-settings', 'v8.1 EU', instance('8.1', 'irmn-8.1.3-win2022-euw1', true)),
    row('instance-settings', 'v8.2 preview', instance('8.2', 'irmn-8.2.0-win2022-use1', false)),
    row('instance-settings', 'Linux trial', instance('8.1', 'irmn-8.1.3-ubuntu2204-use1', false), false),
    row('backup-settings', 'Standard retention', backupConfig(rng, false)),
    row('backup-settings', 'Production twice daily', backupConfig(rng, true)),
  ]);
  return licenseNames;
}
