/**
 * Builders of an account's settings sections as stored in its JSON columns
 * (spec 1 §3 licenseConfig, machineConfig, backupConfig, idle schedule entries)
 * and of machine version maps (DESIGN §6, obsolete machines). Shared by the
 * accounts generator and the templates.
 */
import type { SoftwareCatalogue } from './software.js';
import { CORE_SOFTWARE, SOFTWARE_KEYS, type SoftwareKey } from './names.js';
import { BASE_DATE, daysAfter, hoursAfter, type Rng } from './random.js';

export type IrmnLine = '8.0' | '8.1' | '8.2';

/** Bundle version of each IRMN line: major.minor.patch.build. */
export const BUNDLES: Record<IrmnLine, string> = { '8.0': '8.0.7.1290', '8.1': '8.1.3.1402', '8.2': '8.2.0.1517' };

/** Release branch whose head the accounts of a line follow. */
export const LINE_BRANCH: Record<IrmnLine, string> = { '8.0': 'release/8.0', '8.1': 'release/8.1', '8.2': 'release/8.2' };

/** Integration components have versions of their own. */
const INTEGRATION_BASE: Partial<Record<SoftwareKey, string>> = {
  deployer: '4.12',
  linkware: '3.4',
  discovery: '2.9',
  fiberSenSys: '1.6',
  fiberMountain: '1.3',
  serviceNow: '5.1',
  commScope: '2.2',
  apSensing: '1.1',
  voltServer: '1.0',
  cadImport: '6.0',
};

/**
 * The version of each of `components` that a machine on `bundle` runs, e.g.
 * `{launcher: '8.1.3.1402', siteMaster: '8.1.3.1399', linkware: '3.4.2.88'}`.
 */
export function versionsFor(bundle: string, components: readonly SoftwareKey[]): Record<string, string> {
  const parts = bundle.split('.');
  const line = parts.slice(0, 3).join('.');
  const build = Number(parts[3] ?? 0);
  const patch = Number(parts[2] ?? 0);
  const out: Record<string, string> = {};
  for (const key of components) {
    const offset = SOFTWARE_KEYS.indexOf(key) % 5;
    const own = INTEGRATION_BASE[key];
    out[key] = own ? `${own}.${patch}.${Math.floor(build / 16) + offset}` : `${line}.${build - offset}`;
  }
  return out;
}

/** A newer desired state: one to three components moved to a later build (an obsolete machine). */
export function newerVersions(rng: Rng, current: Record<string, string>): Record<string, string> {
  const desired = { ...current };
  for (const key of rng.sample(Object.keys(current), rng.int(1, 3))) {
    const parts = (desired[key] ?? '0.0.0.0').split('.');
    parts[3] = String(Number(parts[3] ?? 0) + rng.int(3, 40));
    desired[key] = parts.join('.');
  }
  return desired;
}

export interface LicenseInput {
  instancePolicy: 'AllInOne' | 'InstancePerSiteMaster';
  cloudInstanceType: number;
  redisCloudInstanceType?: number;
  sites: number;
  expirationTime: Date | null;
  features: string[];
  reportingCategories: string[];
  matchedTemplate: string | null;
  addOn?: { siteName: string; areaCategoryName: string };
  large: boolean;
}

/** licenseConfig (spec 1 §3, defaults §9): maxSites 1 for AllInOne, counts scaled for large customers. */
export function licenseConfig(rng: Rng, input: LicenseInput): Record<string, unknown> {
  const scale = input.large ? 10 : 1;
  return {
    instancePolicy: input.instancePolicy,
    cloudInstanceType: input.cloudInstanceType,
    ...(input.redisCloudInstanceType !== undefined ? { redisCloudInstanceType: input.redisCloudInstanceType } : {}),
    maxSites: input.instancePolicy === 'AllInOne' ? 1 : Math.max(10, input.sites + rng.int(0, 5)),
    maxAreas: 1000 * scale,
    maxEquips: 1000 * scale,
    maxSoftwares: 1000,
    maxCircuits: 1000 * scale,
    maxPathways: 1000 * scale,
    maxMainholes: 1000,
    maxUsers: 1000,
    maxReportUsers: 50 * (input.large ? 4 : 1),
    maxClientUsers: 50 * (input.large ? 4 : 1),
    maxTechnicianUsers: 50,
    maxFaceplates: 1000 * scale,
    maxRacks: 1000 * scale,
    cloudCredits: rng.pick([250, 500, 1000, 1000, 1000]),
    isActive: input.expirationTime === null || input.expirationTime.getTime() > BASE_DATE.getTime(),
    expirationTime: input.expirationTime?.toISOString() ?? null,
    features: input.features,
    reportingCategories: input.reportingCategories,
    matchedTemplate: input.matchedTemplate,
    ...(input.addOn ? { addOnSiteName: input.addOn.siteName, addOnAreaCategoryName: input.addOn.areaCategoryName } : {}),
  };
}

export interface MachineConfigInput {
  region: string;
  vmImageName: string;
  line: IrmnLine;
  osType: 'Windows' | 'Linux';
  integrations: SoftwareKey[];
  mainLibraryFiles: number[];
  accountLibraryFiles: number[];
  production: boolean;
  createdAt: Date;
}

/** The default sample data files, stored by `stored-files.ts` (Reinstall Sample Data's choices; machine configs name them). */
export const DEFAULT_SAMPLE_DATA_FILES = ['campus-demo.zip', 'datacenter-demo.zip', 'fiber-osp-demo.zip'] as const;

/**
 * machineConfig (spec 1 §3, defaults §9): region, image, switches, and for every
 * component X `XVersionMode` (Latest, Select, LatestBuild, None) and `XVersion`
 * (`{branch}|latest`, `{branch}|{shortHash}` or empty); library modes and files.
 */
export function machineConfig(rng: Rng, software: SoftwareCatalogue, input: MachineConfigInput): Record<string, unknown> {
  const branch = LINE_BRANCH[input.line];
  const sampleData = !input.production && rng.chance(0.3);
  const config: Record<string, unknown> = {
    region: input.region,
    vmImageName: input.vmImageName,
    showInGrafana: input.production || rng.chance(0.5),
    useSparePool: rng.chance(0.3),
    runSmokeTest: rng.chance(input.production ? 0.6 : 0.2),
    includeSampleData: sampleData,
    sampleDataFile: sampleData ? rng.pick(DEFAULT_SAMPLE_DATA_FILES) : null,
    includeIrmoData: rng.chance(0.15),
    useUniqueKey: input.production,
    enableSsl: input.production || rng.chance(0.8),
    marketingVersion: input.line === '8.2' ? '2027.1' : input.line === '8.1' ? '2026.3' : '2025.4',
    autoStopTime: input.production ? null : daysAfter(2, input.createdAt).toISOString(),
    launcherUseCloudDb: input.production && rng.chance(0.5),
    siteMasterUseCloudDb: input.production && rng.chance(0.3),
    sqlExportUseCloudDb: rng.chance(0.2),
    bundleVersion: BUNDLES[input.line],
    keyType: input.production ? 'Unique' : 'Default',
  };
  for (const key of SOFTWARE_KEYS) {
    let mode = 'None';
    let version = '';
    if (key === 'deployer') {
      if (rng.chance(0.1)) [mode, version] = ['Select', software.versionRef('deployer', 'master', rng.int(0, 3))];
    } else if (CORE_SOFTWARE.includes(key) || input.integrations.includes(key)) {
      mode = rng.weighted([
        ['Latest', 7],
        ['Select', 2],
        ['LatestBuild', 1],
      ]);
      if (mode === 'Latest') version = `${branch}|latest`;
      if (mode === 'Select') version = software.versionRef(key, branch, rng.int(0, 2));
    }
    config[`${key}VersionMode`] = mode;
    config[`${key}Version`] = version;
  }
  const main = input.mainLibraryFiles.length > 0 ? 'Select' : rng.pick(['LatestProd', 'LatestProd', 'None']);
  config.mainLibraryMode = main;
  config.mainLibraryFiles = main === 'Select' ? input.mainLibraryFiles : [];
  config.accountLibraryMode = input.accountLibraryFiles.length > 0 ? 'Select' : 'None';
  config.accountLibraryFiles = input.accountLibraryFiles;
  config.accountLibraryFile = input.accountLibraryFiles[0] ?? null;
  return config;
}

/** backupConfig (spec 1 §3, defaults §9); production accounts back up twice a day and keep more. */
export function backupConfig(rng: Rng, production: boolean): Record<string, unknown> {
  return {
    times: production ? rng.pick([['02:00', '14:00'], ['05:00', '17:30'], ['01:30']]) : rng.pick([['05:00'], ['05:00'], ['22:30'], []]),
    weeklyBackupDay: production ? rng.int(1, 7) : 1,
    monthlyBackupDay: production ? rng.int(1, 28) : 1,
    manualDaysToRetain: 7,
    dailyDaysToRetain: production ? 14 : 7,
    weeklyDaysToRetain: production ? 56 : 28,
    monthlyDaysToRetain: production ? 365 : 180,
    manualEolAction: 'Delete',
    dailyEolAction: 'Delete',
    weeklyEolAction: 'MoveToGlacier',
    monthlyEolAction: 'MoveToGlacier',
  };
}

/** Idle schedule entries (spec 1 §3): stop in the evening, resume after 10 to 60 hours; in the future of the base date. */
export function idleSchedule(rng: Rng, from: Date): { stopAt: string; resumeAfter: number }[] {
  const count = rng.int(1, 3);
  const entries: { stopAt: string; resumeAfter: number }[] = [];
  let day = from;
  for (let i = 0; i < count; i++) {
    day = daysAfter(rng.int(1, 14), day);
    const stopAt = hoursAfter(rng.pick([18, 19, 20, 22]), new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())));
    entries.push({ stopAt: stopAt.toISOString(), resumeAfter: rng.pick([10, 12, 14, 36, 60]) });
  }
  return entries;
}
