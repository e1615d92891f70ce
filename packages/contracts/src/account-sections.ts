/**
 * The settings sections of an account (spec 1 §3 licenseConfig, machineConfig,
 * backupConfig, idle schedule entries; §4 version and library modes; §5 rules;
 * §9 defaults) and the helpers every side shares: URL name derivation, backup
 * time normalisation, the launcher URL and site domain names.
 *
 * The schemas carry the §9 defaults, so an omitted field takes its default (a
 * creation payload may leave out whole sections; a PUT replaces a section, and a
 * field it leaves out is reset to its default). Rules that need only the body
 * are here with the specification's messages; rules that need the database (the
 * account's class, the catalogues, locked fields) are the server's.
 */
import { z } from 'zod';
import { ZInstancePolicy } from './accounts.js';
import { INT4_MAX, ZRefId } from './common.js';

/** The provider's domain: launcher URLs and site domain names are under it (spec 1 §2 Sites tab). */
export const PROVIDER_DOMAIN = 'fleet.example.net';
/** The DevOps group address, the default maintainer (spec 1 §9). */
export const DEVOPS_EMAIL = 'devops@fleet.example';
/** Instance type id treated as t2.medium, which asks for confirmation on push (spec 1 §5, §9). */
export const T2_MEDIUM_INSTANCE_TYPE_ID = 2;
/** Maximum Credits range (spec 1 §5). */
export const MIN_CLOUD_CREDITS = 1;
export const MAX_CLOUD_CREDITS = 1000;
/** Backup time picker step (spec 1 §5, §9). */
export const BACKUP_TIME_STEP_MINUTES = 30;

/**
 * Components with a version in machineConfig (spec 1 §3), in the specification's
 * order: `{key}VersionMode` and `{key}Version` exist for each.
 */
export const CONFIG_COMPONENTS = [
  'launcher',
  'siteMaster',
  'smchk',
  'client',
  'reporting',
  'pdfExport',
  'sqlExport',
  'populate',
  'linkware',
  'discovery',
  'fiberSenSys',
  'fiberMountain',
  'serviceNow',
  'commScope',
  'apSensing',
  'voltServer',
  'cadImport',
  'auditChangeLog',
  'deployer',
] as const;
export const ZConfigComponent = z.enum(CONFIG_COMPONENTS);
export type TConfigComponent = z.infer<typeof ZConfigComponent>;

/** The components in the States viewer's order (spec 2 §2.8): its columns, and the order the demo seed generates them in. */
export const STATES_VIEWER_COMPONENTS = [
  'deployer',
  'siteMaster',
  'launcher',
  'client',
  'pdfExport',
  'reporting',
  'populate',
  'sqlExport',
  'discovery',
  'linkware',
  'smchk',
  'fiberSenSys',
  'fiberMountain',
  'serviceNow',
  'commScope',
  'apSensing',
  'voltServer',
  'cadImport',
  'auditChangeLog',
] as const satisfies readonly TConfigComponent[];

/** Display names of the components (spec 1 §2 Component Versions card). */
export const COMPONENT_LABELS: Record<TConfigComponent, string> = {
  launcher: 'Launcher',
  siteMaster: 'Site Master',
  smchk: 'Site Master Validator',
  client: 'Web Client',
  reporting: 'Reporting',
  pdfExport: 'Export',
  sqlExport: 'Relational Export',
  populate: 'Populate',
  linkware: 'Linkware',
  discovery: 'Discovery',
  fiberSenSys: 'Fiber SenSys',
  fiberMountain: 'Fiber Mountain',
  serviceNow: 'ServiceNow',
  commScope: 'CommScope',
  apSensing: 'AP Sensing',
  voltServer: 'VoltServer',
  cadImport: 'CAD Import',
  auditChangeLog: 'Audit ChangeLog',
  deployer: 'Deployer',
};

/** A component's label (Launcher, Site Master…); a key the catalogue does not know is its own label. */
export const componentLabel = (key: string): string => COMPONENT_LABELS[key as TConfigComponent] ?? key;

/** Component keys once each: those of the catalogue in its order ({@link CONFIG_COMPONENTS}), then the others by name. */
export function orderedComponents(keys: Iterable<string>): string[] {
  const set = new Set(keys);
  return [...CONFIG_COMPONENTS.filter((k) => set.has(k)), ...[...set].filter((k) => !(CONFIG_COMPONENTS as readonly string[]).includes(k)).sort()];
}

/**
 * Version modes of a component in an account (spec 1 §4, spec 3 §4): Latest is
 * `{branch}|latest` (default branch master, blank branch any), Select a commit
 * (`{branch}|{shortHash}` or a short hash) or a build URL, LatestBuild and None
 * have no version. Skip belongs to the updater only.
 */
export const ACCOUNT_VERSION_MODES = ['None', 'Latest', 'LatestBuild', 'Select'] as const;
export const ZAccountVersionMode = z.enum(ACCOUNT_VERSION_MODES);
export type TAccountVersionMode = z.infer<typeof ZAccountVersionMode>;
/** Branch of Latest when none is named (spec 3 §9). */
export const DEFAULT_LATEST_BRANCH = 'master';

export const MAIN_LIBRARY_MODES = ['None', 'Skip', 'LatestDev', 'LatestProd', 'Select'] as const;
export const ACCOUNT_LIBRARY_MODES = ['None', 'Skip', 'LatestAccount', 'Select'] as const;
/** Encryption keys of an account (spec 1 §2 Instance Settings). */
export const KEY_TYPES = ['Default', 'Unique', 'GenerateNewKeys'] as const;
/** What happens to a backup past its retention (spec 1 §9). */
export const EOL_ACTIONS = ['Delete', 'MoveToGlacier'] as const;
export const ZEolAction = z.enum(EOL_ACTIONS, { error: 'End-of-life action must be Delete or MoveToGlacier' });

const DAY_MS = 86_400_000;
const isoDateTime = (error: string) => z.iso.datetime({ offset: true, error }).max(40, error);
const count = (label: string, min: number, fallback: number) =>
  z
    .number()
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(INT4_MAX, `${label} must be at most ${INT4_MAX}`)
    .default(fallback);

/**
 * A string that the specification requires: missing, null and blank all answer
 * `message` (spec 1 §5), so that the error names the rule, not the JSON type.
 */
export const requiredString = (message: string, max = 200) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : undefined) })
    .trim()
    .min(1, message)
    .max(max);

// ---------------------------------------------------------------- license

/**
 * licenseConfig (spec 1 §3; rules §5; defaults §9). `cloudInstanceType` null means
 * "the first machine instance type" and is resolved by the server. AllInOne forces
 * maxSites to 1 (the server stores 1 whatever was sent). The add-on names are
 * required for add-on accounts only, which the server checks (it knows the class).
 */
export const ZLicenseConfig = z.object({
  instancePolicy: ZInstancePolicy.default('AllInOne'),
  cloudInstanceType: ZRefId.nullable().default(null),
  redisCloudInstanceType: ZRefId.nullable().default(null),
  maxSites: count('Maximum sites', 1, 10),
  maxAreas: count('Maximum areas', 0, 1000),
  maxEquips: count('Maximum equipment', 0, 1000),
  maxSoftwares: count('Maximum softwares', 0, 1000),
  maxCircuits: count('Maximum circuits', 0, 1000),
  maxPathways: count('Maximum pathways', 0, 1000),
  maxMainholes: count('Maximum manholes', 0, 1000),
  maxUsers: count('Maximum users', 0, 1000),
  maxReportUsers: count('Maximum report users', 0, 50),
  maxClientUsers: count('Maximum client users', 0, 50),
  maxTechnicianUsers: count('Maximum technician users', 0, 50),
  maxFaceplates: count('Maximum faceplates', 0, 1000),
  maxRacks: count('Maximum racks', 0, 1000),
  cloudCredits: z
    .number()
    .int('Maximum Credits must be a whole number')
    .min(MIN_CLOUD_CREDITS, 'Maximum Credits must be between 1 and 1000')
    .max(MAX_CLOUD_CREDITS, 'Maximum Credits must be between 1 and 1000')
    .default(1000),
  isActive: z.boolean().default(true),
  expirationTime: isoDateTime('Expiration time must be a date and time')
    .nullable()
    .default(() => new Date(Date.now() + 365 * DAY_MS).toISOString()),
  features: z.array(z.string().max(200)).max(200).default([]),
  reportingCategories: z.array(z.string().max(200)).max(200).default([]),
  matchedTemplate: z.string().max(200).nullable().default(null),
  addOnSiteName: z.string().trim().max(200).nullable().default(null),
  /** The spelling also seen in the specification; read as addOnSiteName when that is empty. */
  addOnSitename: z.string().trim().max(200).nullable().optional(),
  addOnAreaCategoryName: z.string().trim().max(200).nullable().default(null),
});
export type TLicenseConfig = z.output<typeof ZLicenseConfig>;
export type TLicenseConfigInput = z.input<typeof ZLicenseConfig>;

// ---------------------------------------------------------------- instance (machineConfig)

type ComponentShape = {
  [K in TConfigComponent as `${K}VersionMode`]: z.ZodDefault<typeof ZAccountVersionMode>;
} & {
  [K in TConfigComponent as `${K}Version`]: z.ZodDefault<z.ZodString>;
};

const componentShape = Object.fromEntries(
  CONFIG_COMPONENTS.flatMap((key) => [
    [`${key}VersionMode`, ZAccountVersionMode.default(key === 'deployer' ? 'None' : 'Latest')],
    [`${key}Version`, z.string().trim().max(500).default('')],
  ]),
) as ComponentShape;

/**
 * machineConfig (spec 1 §3; defaults §9: SSL on, auto-stop two days ahead,
 * component modes Latest, deployer and library modes None, keyType Default).
 * Region, SSL, sample data and image are locked once the account exists.
 */
export const ZMachineConfig = z.object({
  region: z.string().trim().max(50).default(''),
  vmImageName: z.string().trim().max(200).default(''),
  showInGrafana: z.boolean().default(false),
  useSparePool: z.boolean().default(false),
  runSmokeTest: z.boolean().default(false),
  includeSampleData: z.boolean().default(false),
  sampleDataFile: z.string().trim().max(300).nullable().default(null),
  includeIrmoData: z.boolean().default(false),
  useUniqueKey: z.boolean().default(false),
  enableSsl: z.boolean().default(true),
  marketingVersion: z.string().trim().max(50).nullable().default(null),
  autoStopTime: isoDateTime('Auto-stop time must be a date and time')
    .nullable()
    .default(() => new Date(Date.now() + 2 * DAY_MS).toISOString()),
  launcherUseCloudDb: z.boolean().default(false),
  siteMasterUseCloudDb: z.boolean().default(false),
  sqlExportUseCloudDb: z.boolean().default(false),
  bundleVersion: z.string().trim().max(50).nullable().default(null),
  keyType: z.enum(KEY_TYPES).default('Default'),
  ...componentShape,
  mainLibraryMode: z.enum(MAIN_LIBRARY_MODES).default('None'),
  mainLibraryFiles: z.array(ZRefId).max(100).default([]),
  accountLibraryMode: z.enum(ACCOUNT_LIBRARY_MODES).default('None'),
  accountLibraryFiles: z.array(ZRefId).max(100).default([]),
  accountLibraryFile: ZRefId.nullable().default(null),
});
export type TMachineConfig = z.output<typeof ZMachineConfig>;
export type TMachineConfigInput = z.input<typeof ZMachineConfig>;

// ---------------------------------------------------------------- backup and idle

/**
 * backupConfig (spec 1 §3; rules §5; defaults §9). `times` are times of day
 * `HH:mm` (UTC) in 30-minute steps; the server drops invalid and duplicate times
 * rather than refusing them (spec 1 §5 "ignored") and stores them sorted.
 */
export const ZBackupConfig = z.object({
  times: z.array(z.string().max(40)).max(96).default([]),
  weeklyBackupDay: z
    .number()
    .int()
    .min(1, 'Weekly backup day must be between 1 (Monday) and 7 (Sunday)')
    .max(7, 'Weekly backup day must be between 1 (Monday) and 7 (Sunday)')
    .default(1),
  monthlyBackupDay: z
    .number()
    .int()
    .min(1, 'Monthly backup day must be between 1 and 28')
    .max(28, 'Monthly backup day must be between 1 and 28')
    .default(1),
  manualDaysToRetain: count('Manual retention days', 1, 7),
  dailyDaysToRetain: count('Daily retention days', 1, 7),
  weeklyDaysToRetain: count('Weekly retention days', 1, 28),
  monthlyDaysToRetain: count('Monthly retention days', 1, 180),
  manualEolAction: ZEolAction.default('Delete'),
  dailyEolAction: ZEolAction.default('Delete'),
  weeklyEolAction: ZEolAction.default('MoveToGlacier'),
  monthlyEolAction: ZEolAction.default('MoveToGlacier'),
});
export type TBackupConfig = z.output<typeof ZBackupConfig>;

/** One idle schedule entry (spec 1 §3): stop at a time, resume after some hours (minimum 0, spec 1 §5). */
export const ZIdleScheduleEntry = z.object({
  stopAt: isoDateTime('Stop at must be a date and time'),
  resumeAfter: z.number().min(0, 'Resume after must be at least 0 hours').max(8760, 'Resume after must be at most 8760 hours'),
});
export type TIdleScheduleEntry = z.infer<typeof ZIdleScheduleEntry>;
export const ZIdleSchedules = z.array(ZIdleScheduleEntry).max(100);

// ---------------------------------------------------------------- helpers

/**
 * The URL name the console derives from a display name (spec 1 §5): lowercase,
 * spaces and hyphens removed, non-word characters removed.
 */
export function toUrlFriendlyName(name: string): string {
  return name.toLowerCase().replace(/[\s-]+/g, '').replace(/\W/g, '');
}

/** What a URL name may hold: lowercase letters, digits and underscores, 1 to 63 characters (a DNS label). */
export const URL_NAME_PATTERN = /^[a-z0-9_]{1,63}$/;
export const URL_NAME_MESSAGE = 'URL name may hold only lowercase letters, digits and underscores (at most 63)';

/**
 * A backup time as the server stores it (`HH:mm`), or null when it is not a time
 * of the picker (00:00 to 23:30 in 30-minute steps). Accepts `H:mm`, `HH:mm`,
 * `HH:mm:ss` and ISO date-times (their UTC time of day).
 */
export function toBackupTime(value: string): string | null {
  let hours: number;
  let minutes: number;
  let seconds: number;
  const plain = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.0+)?)?$/.exec(value.trim());
  if (plain) {
    [hours, minutes, seconds] = [Number(plain[1]), Number(plain[2]), Number(plain[3] ?? 0)];
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) return null;
    [hours, minutes, seconds] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds() + at.getUTCMilliseconds()];
  } else {
    return null;
  }
  if (hours > 23 || minutes % BACKUP_TIME_STEP_MINUTES !== 0 || minutes > 59 || seconds !== 0) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** Backup times with invalid and duplicate ones dropped, sorted (spec 1 §5). */
export function normaliseBackupTimes(times: readonly string[]): string[] {
  const valid = times.map(toBackupTime).filter((t): t is string => t !== null);
  return [...new Set(valid)].sort();
}

/** The launcher URL of an account (spec 1 §2): https when SSL is on, else http. */
export function launcherUrl(urlFriendlyName: string, enableSsl: boolean): string {
  return `${enableSsl ? 'https' : 'http'}://${urlFriendlyName}.${PROVIDER_DOMAIN}`;
}

/** The subdomain of a site (spec 1 §3): `{site urlFriendlyName}-{account urlFriendlyName}`. */
export function siteSubdomain(siteUrlFriendlyName: string, accountUrlFriendlyName: string): string {
  return `${siteUrlFriendlyName}-${accountUrlFriendlyName}`;
}

/** The full domain name of a site: its subdomain under the provider's domain. */
export function siteDomainName(subdomain: string): string {
  return `${subdomain}.${PROVIDER_DOMAIN}`;
}
