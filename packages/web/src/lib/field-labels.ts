/**
 * People's names for components and fields (issue 24 point 8 "Names for
 * people"): the screens that show a component key (`siteMaster`, `smchk`) or a
 * field name (`launcherVersion`, `siteMasterVersionMode`) show these labels.
 *
 * - Components: the one table is the contracts' `COMPONENT_LABELS` (spec 1 §2
 *   Component Versions card: launcher → Launcher, smchk → Site Master
 *   Validator, …).
 * - Fields of the account and machine forms (spec 1 §2 cards, §3 licenseConfig,
 *   machineConfig, backupConfig, idle schedules; spec 2 §3 machine flags; spec 3
 *   §2.8 updater flags): {@link FIELD_LABELS}, as the forms label them; a
 *   component's `{key}Version` / `{key}VersionMode` read
 *   'Site Master version' / 'Site Master version mode'.
 *
 * Known limitation: most forms write their labels in their own JSX and this
 * table repeats them; the License Settings card's counts read theirs from here
 * ({@link LICENSE_COUNT_LABELS}).
 */
import { COMPONENT_LABELS } from '@fleet/contracts';

/** A component's label (`smchk` → 'Site Master Validator'); an unknown key as it is. */
export function componentLabel(key: string): string {
  return (COMPONENT_LABELS as Readonly<Record<string, string | undefined>>)[key] ?? key;
}

/** The license count fields (spec 1 §2 License Settings; the card's own labels). */
export const LICENSE_COUNT_LABELS = {
  maxSites: 'Maximum sites',
  maxAreas: 'Maximum areas',
  maxEquips: 'Maximum equipment',
  maxSoftwares: 'Maximum softwares',
  maxCircuits: 'Maximum circuits',
  maxPathways: 'Maximum pathways',
  maxMainholes: 'Maximum manholes',
  maxUsers: 'Maximum users',
  maxReportUsers: 'Maximum report users',
  maxClientUsers: 'Maximum client users',
  maxTechnicianUsers: 'Maximum technician users',
  maxFaceplates: 'Maximum faceplates',
  maxRacks: 'Maximum racks',
} as const;

/**
 * Labels of the account and machine fields, keyed by field name; a key
 * `{Entity}.{field}` names the field of one entity only (an audit change's
 * entity, e.g. `Account.name` is the account's display name).
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // Account Properties (spec 1 §2), flattened as the audit records them.
  'Account.name': 'Display name',
  name: 'Name',
  classId: 'MMA class',
  parentId: 'Add-on parent account',
  urlFriendlyName: 'URL name',
  description: 'Description',
  customer: 'Customer',
  contactName: 'Contact name',
  contactEmail: 'Contact email',
  contactPhone1: 'Phone 1',
  contactPhone2: 'Phone 2',
  maintainer: 'Maintainer',
  billingPeriod: 'Billing period',
  billingAmount: 'Billing amount',
  managed: 'Managed',
  whiteGlove: 'White glove',
  autoTest: 'Auto test',
  autoTestBranch: 'Auto test branch',
  // License Settings (spec 1 §2, §3 licenseConfig).
  instancePolicy: 'Server instance policy',
  expirationTime: 'Expiration date',
  cloudCredits: 'Maximum Credits',
  isActive: 'Active',
  cloudInstanceType: 'Cloud instance type',
  redisCloudInstanceType: 'Redis instance type',
  features: 'Features',
  reportingCategories: 'Reporting categories',
  matchedTemplate: 'Template',
  addOnSiteName: 'Add-on Site Name',
  addOnAreaCategoryName: 'Add-on Area Category Name',
  ...LICENSE_COUNT_LABELS,
  // Instance Settings (spec 1 §2, §3 machineConfig); component versions are derived below.
  region: 'Region',
  vmImageName: 'Image',
  keyType: 'Encryption keys',
  useUniqueKey: 'Unique key',
  autoStopTime: 'Auto-stop time',
  marketingVersion: 'Marketing version',
  showInGrafana: 'Show in Grafana',
  enableSsl: 'Enable SSL',
  useSparePool: 'Use spare pool',
  includeIrmoData: 'Include IRMO data',
  runSmokeTest: 'Run smoke test',
  launcherUseCloudDb: 'Cloud DB for launcher',
  siteMasterUseCloudDb: 'Cloud DB for site master',
  sqlExportUseCloudDb: 'Cloud DB for SQL export',
  includeSampleData: 'Sample data',
  sampleDataFile: 'Sample data file',
  bundleVersion: 'Bundle version',
  mainLibraryMode: 'Main Library mode',
  mainLibraryFiles: 'Main Library files',
  accountLibraryMode: 'Account Library mode',
  accountLibraryFiles: 'Account Library files',
  accountLibraryFile: 'Account Library file',
  versionOverrides: 'Machine version overrides',
  // Backup Settings (spec 1 §2, §3 backupConfig).
  times: 'Daily schedule',
  weeklyBackupDay: 'Weekly backup day',
  monthlyBackupDay: 'Monthly backup day',
  manualDaysToRetain: 'Manual days to retain',
  dailyDaysToRetain: 'Daily days to retain',
  weeklyDaysToRetain: 'Weekly days to retain',
  monthlyDaysToRetain: 'Monthly days to retain',
  manualEolAction: 'Manual end-of-life action',
  dailyEolAction: 'Daily end-of-life action',
  weeklyEolAction: 'Weekly end-of-life action',
  monthlyEolAction: 'Monthly end-of-life action',
  // Idle Schedule (spec 1 §2, §3 idle schedule entries).
  idleSchedules: 'Idle schedule',
  stopAt: 'Stop at',
  resumeAfter: 'Resume after',
  // Machine flags (spec 2 §3 Machine; the machine table and the updater's batch flags).
  manualMaintenance: 'Manual maintenance',
  turbo: 'Turbo',
  overseeTermination: 'Oversee termination',
  needsAdmin: 'Needs admin',
  failCounter: 'Failures',
  stop: 'Stop',
  idle: 'Idle',
  terminate: 'Terminate',
};

const COMPONENT_FIELD = /^(.+?)(VersionMode|Version)$/;
const COMPONENT_FIELD_WORDS: Record<string, string> = { VersionMode: 'version mode', Version: 'version' };

/** A property name in words: `machineIds` → 'Machine ids', `dry_run` → 'Dry run'. */
export function wordsOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The label of field `key` (of `entity`, an audit change's entity name such as
 * `Account` or `Machine 17`, whose first word counts): the entity's own label,
 * else {@link FIELD_LABELS}, else a component's version field
 * (`smchkVersionMode` → 'Site Master Validator version mode'), else the name in
 * words ({@link wordsOf}); a key that is not a plain name (a configuration key
 * such as `Launcher:Port` or `a.b`) stays as it is.
 */
export function fieldLabel(key: string, entity?: string): string {
  const kind = entity?.split(' ')[0];
  const own = kind ? FIELD_LABELS[`${kind}.${key}`] : undefined;
  if (own) return own;
  if (Object.hasOwn(FIELD_LABELS, key)) return FIELD_LABELS[key]!;
  const component = COMPONENT_FIELD.exec(key);
  if (component && Object.hasOwn(COMPONENT_LABELS, component[1]!)) {
    return `${componentLabel(component[1]!)} ${COMPONENT_FIELD_WORDS[component[2]!]}`;
  }
  return /^[A-Za-z][A-Za-z0-9_-]*$/.test(key) ? wordsOf(key) : key;
}

/** Whether `key` is a component's version field (`launcherVersion`), whose values are versions. */
export function isVersionField(key: string): boolean {
  const component = COMPONENT_FIELD.exec(key);
  return component?.[2] === 'Version' && Object.hasOwn(COMPONENT_LABELS, component[1]!);
}
