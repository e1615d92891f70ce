/**
 * The server's account rules that the request schemas cannot check on their own
 * (spec 1 §4, §5; DESIGN §5): what needs the database (catalogue entries, the
 * add-on parent, the account's class and stored values) and the normalisation
 * the specification asks for (add-on forcing, AllInOne forcing maxSites to 1,
 * version and library modes, backup times).
 *
 * Checks return every field error they find (`propertyName`, `errorMessage`,
 * `attemptedValue`), named with `prefix` (`licenseConfig.` inside a creation
 * payload, empty for a section push), so that a caller answers one 400 with all.
 */
import {
  ACCOUNT_LIBRARY_MODES,
  CLASS_ADD_ON,
  CLASS_CUSTOMER_PRODUCTION,
  COMPONENT_LABELS,
  CONFIG_COMPONENTS,
  DEFAULT_LATEST_BRANCH,
  DEVOPS_EMAIL,
  ZBackupConfig,
  ZLicenseConfig,
  ZMachineConfig,
  normaliseBackupTimes,
  type TBackupConfig,
  type TFieldError,
  type TIdleScheduleEntry,
  type TLicenseConfig,
  type TMachineConfig,
} from '@fleet/contracts';
import type { z } from 'zod';
import { readAll, type DbOrTx } from '../../db/client.js';
import { hasCustomerProductionAccess, hiddenClassIds, type Principal } from '../../auth/principal.js';
import { forbidden } from '../../lib/problem.js';
import * as catalogue from '../catalogues/catalogues.repository.js';
import { selectParentCandidate } from './account-settings.repository.js';

const fieldError = (propertyName: string, errorMessage: string, attemptedValue: unknown): TFieldError => ({
  propertyName,
  errorMessage,
  attemptedValue,
});

/**
 * A stored section read through its schema: missing fields take their defaults
 * (`base` first, then the stored JSON), and a stored field the schema refuses is
 * replaced by its default rather than failing the read.
 */
export function readSection<S extends z.ZodObject>(schema: S, stored: Record<string, unknown>, base: Record<string, unknown> = {}): z.output<S> {
  let value: Record<string, unknown> = { ...base, ...stored };
  for (let attempt = 0; attempt < 3; attempt++) {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    value = Object.fromEntries(Object.entries(value).filter(([k]) => !bad.has(k)));
  }
  return schema.parse({});
}

export const readLicense = (stored: Record<string, unknown>, base: Record<string, unknown>) => readSection(ZLicenseConfig, stored, base);
export const readMachineConfig = (stored: Record<string, unknown>, base: Record<string, unknown>) => readSection(ZMachineConfig, stored, base);
export const readBackup = (stored: Record<string, unknown>) => readSection(ZBackupConfig, stored);

// ---------------------------------------------------------------- properties

interface PropertyFlags {
  classId: number;
  parentId: number | null;
  managed: boolean;
  autoTest: boolean;
  autoTestBranch: string | null;
  whiteGlove: boolean;
  maintainer: string;
}

/**
 * Add-on accounts are unmanaged, without auto test, branch or white glove
 * (spec 1 §4); other accounts have no parent; a blank maintainer is the DevOps
 * group; a branch without auto test is dropped.
 */
export function normaliseProperties<T extends PropertyFlags>(p: T): T {
  const out = { ...p, maintainer: p.maintainer || DEVOPS_EMAIL };
  if (p.classId === CLASS_ADD_ON) return { ...out, managed: false, autoTest: false, autoTestBranch: null, whiteGlove: false };
  return { ...out, parentId: null, autoTestBranch: p.autoTest ? p.autoTestBranch || null : null };
}

/**
 * Class and parent rules (spec 1 §5, §6): Customer Production only for group
 * CustomerProductionAccess (403 otherwise); an add-on's parent is a visible
 * account that is not itself, not a template, has no parent and is not an add-on.
 */
export async function checkClassAndParent(
  db: DbOrTx,
  opts: { principal: Principal; classId: number; parentId: number | null; accountId?: number; prefix?: string },
): Promise<TFieldError[]> {
  if (opts.classId === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(opts.principal)) {
    throw forbidden('Only members of group CustomerProductionAccess may choose the class Customer Production');
  }
  if (opts.classId !== CLASS_ADD_ON || opts.parentId === null) return [];
  const path = `${opts.prefix ?? ''}parentId`;
  const parent = await selectParentCandidate(db, opts.parentId, hiddenClassIds(opts.principal));
  const problem = !parent
    ? 'Add-on parent account was not found'
    : parent.id === opts.accountId
      ? 'An account cannot be its own add-on parent'
      : parent.isTemplate
        ? 'A template cannot be an add-on parent'
        : parent.parentId !== null
          ? 'An account that has a parent cannot be an add-on parent'
          : parent.classId === CLASS_ADD_ON
            ? 'An add-on account cannot be an add-on parent'
            : null;
  return problem ? [fieldError(path, problem, opts.parentId)] : [];
}

// ---------------------------------------------------------------- license

/**
 * AllInOne forces maxSites to 1 (spec 1 §4); `addOnSitename` is read as
 * `addOnSiteName`; blank add-on names are null; a null instance type becomes
 * `firstInstanceTypeId`.
 */
export function normaliseLicense(l: TLicenseConfig, firstInstanceTypeId: number | null): TLicenseConfig {
  const { addOnSitename, ...rest } = l;
  return {
    ...rest,
    maxSites: l.instancePolicy === 'AllInOne' ? 1 : l.maxSites,
    cloudInstanceType: l.cloudInstanceType ?? firstInstanceTypeId,
    addOnSiteName: l.addOnSiteName || addOnSitename || null,
    addOnAreaCategoryName: l.addOnAreaCategoryName || null,
    features: [...new Set(l.features)],
    reportingCategories: [...new Set(l.reportingCategories)],
    expirationTime: l.expirationTime === null ? null : new Date(l.expirationTime).toISOString(),
  };
}

/**
 * License rules needing the database or the class (spec 1 §5): known instance
 * types (a machine type and a Redis type), known features and reporting
 * categories, and for add-on accounts the add-on site and area category names.
 */
export async function checkLicense(db: DbOrTx, opts: { license: TLicenseConfig; classId: number; prefix?: string }): Promise<TFieldError[]> {
  const { license } = opts;
  const at = (field: string) => `${opts.prefix ?? ''}${field}`;
  const errors: TFieldError[] = [];
  if (opts.classId === CLASS_ADD_ON) {
    if (!license.addOnSiteName) errors.push(fieldError(at('addOnSiteName'), 'Add-on Site Name is required', license.addOnSiteName));
    if (!license.addOnAreaCategoryName) {
      errors.push(fieldError(at('addOnAreaCategoryName'), 'Add-on Area Category Name is required', license.addOnAreaCategoryName));
    }
  }
  const typeIds = [license.cloudInstanceType, license.redisCloudInstanceType].filter((id): id is number => id !== null);
  const [types, features, categories] = await readAll(db, [
    () => catalogue.selectInstanceTypesByIds(db, typeIds),
    () => catalogue.selectExistingNames(db, 'features', license.features),
    () => catalogue.selectExistingNames(db, 'reportingCategories', license.reportingCategories),
  ]);
  const machineType = types.find((t) => t.id === license.cloudInstanceType && !t.isRedis);
  if (license.cloudInstanceType === null || !machineType) {
    errors.push(fieldError(at('cloudInstanceType'), 'Cloud instance type is not a known instance type', license.cloudInstanceType));
  }
  if (license.redisCloudInstanceType !== null && !types.some((t) => t.id === license.redisCloudInstanceType && t.isRedis)) {
    errors.push(fieldError(at('redisCloudInstanceType'), 'Redis instance type is not a known Redis instance type', license.redisCloudInstanceType));
  }
  license.features.forEach((name, i) => {
    if (!features.has(name)) errors.push(fieldError(at(`features.${i}`), `Unknown feature '${name}'`, name));
  });
  license.reportingCategories.forEach((name, i) => {
    if (!categories.has(name)) errors.push(fieldError(at(`reportingCategories.${i}`), `Unknown reporting category '${name}'`, name));
  });
  return errors;
}

// ---------------------------------------------------------------- instance settings

/**
 * Version and library modes as stored (spec 1 §4, spec 3 §4): Select without a
 * version is None; None and LatestBuild have no version; Latest is
 * `{branch}|latest` (master when blank); library files only in Select mode, and
 * Select without files is None; `accountLibraryFile` is the first account file;
 * `useUniqueKey` follows keyType; no sample data means no sample data file.
 */
export function normaliseMachineConfig(c: TMachineConfig): TMachineConfig {
  const out: Record<string, unknown> = { ...c };
  for (const key of CONFIG_COMPONENTS) {
    const mode = c[`${key}VersionMode`];
    const version = c[`${key}Version`];
    if (mode === 'Select' && !version) [out[`${key}VersionMode`], out[`${key}Version`]] = ['None', ''];
    else if (mode === 'None' || mode === 'LatestBuild') out[`${key}Version`] = '';
    else if (mode === 'Latest' && !version.endsWith('|latest')) out[`${key}Version`] = `${version || DEFAULT_LATEST_BRANCH}|latest`;
  }
  const main = c.mainLibraryMode === 'Select' && c.mainLibraryFiles.length === 0 ? 'None' : c.mainLibraryMode;
  const accountFiles = c.accountLibraryFiles.length > 0 ? c.accountLibraryFiles : c.accountLibraryFile ? [c.accountLibraryFile] : [];
  const account = c.accountLibraryMode === 'Select' && accountFiles.length === 0 ? 'None' : c.accountLibraryMode;
  const select = (files: number[], mode: string) => (mode === 'Select' ? [...new Set(files)] : []);
  const accountLibraryFiles = select(accountFiles, account);
  return {
    ...(out as TMachineConfig),
    mainLibraryMode: main,
    mainLibraryFiles: select(c.mainLibraryFiles, main),
    accountLibraryMode: account as (typeof ACCOUNT_LIBRARY_MODES)[number],
    accountLibraryFiles,
    accountLibraryFile: accountLibraryFiles[0] ?? null,
    useUniqueKey: c.keyType !== 'Default',
    sampleDataFile: c.includeSampleData ? c.sampleDataFile : null,
    autoStopTime: c.autoStopTime === null ? null : new Date(c.autoStopTime).toISOString(),
  };
}

/** Fields of the instance settings that cannot change once set (spec 1 §2 Instance Settings card). */
export const LOCKED_INSTANCE_FIELDS = {
  region: 'Region',
  vmImageName: 'Image',
  enableSsl: 'SSL',
  includeSampleData: 'Sample data',
  sampleDataFile: 'Sample data file',
} as const;

/**
 * Instance settings rules needing the database (spec 1 §2, §5): a field of
 * {@link LOCKED_INSTANCE_FIELDS} that the account already has cannot change;
 * an image being set must exist, be active and be in the region (a blank region
 * becomes the image's); the region must exist; library files must exist; a
 * Select version must be a known commit or build of its component and a Latest
 * branch a known branch. Returns the config with the region filled in.
 */
export async function checkMachineConfig(
  db: DbOrTx,
  opts: { config: TMachineConfig; stored?: Record<string, unknown>; prefix?: string },
): Promise<{ errors: TFieldError[]; config: TMachineConfig }> {
  const at = (field: string) => `${opts.prefix ?? ''}${field}`;
  const errors: TFieldError[] = [];
  const config = { ...opts.config };
  const stored = opts.stored ?? {};
  for (const [field, label] of Object.entries(LOCKED_INSTANCE_FIELDS) as [keyof typeof LOCKED_INSTANCE_FIELDS, string][]) {
    const was = stored[field];
    if (was === undefined || was === '' || (was === null && field !== 'sampleDataFile')) continue;
    if (JSON.stringify(was) !== JSON.stringify(config[field] ?? null)) {
      errors.push(fieldError(at(field), `${label} cannot be changed for an existing account`, config[field]));
    }
  }
  const imageLocked = typeof stored.vmImageName === 'string' && stored.vmImageName !== '';
  if (!imageLocked && config.vmImageName) {
    const image = await catalogue.selectImage(db, config.vmImageName);
    if (!image) errors.push(fieldError(at('vmImageName'), `Image '${config.vmImageName}' does not exist`, config.vmImageName));
    else if (!image.active) errors.push(fieldError(at('vmImageName'), `Image '${config.vmImageName}' is not active`, config.vmImageName));
    else if (!config.region) config.region = image.region;
    else if (image.region !== config.region) {
      errors.push(fieldError(at('vmImageName'), `Image '${config.vmImageName}' is in region ${image.region}, not ${config.region}`, config.vmImageName));
    }
  }
  const regionLocked = typeof stored.region === 'string' && stored.region !== '';
  if (!regionLocked) {
    const regions = await catalogue.selectRegions(db);
    if (!config.region) errors.push(fieldError(at('region'), 'Region is required', config.region));
    else if (!regions.some((r) => r.cloudCode === config.region)) errors.push(fieldError(at('region'), `Unknown region '${config.region}'`, config.region));
  }
  errors.push(...(await checkLibraryFiles(db, config, at)), ...(await checkVersions(db, config, at)));
  return { errors, config };
}

async function checkLibraryFiles(db: DbOrTx, config: TMachineConfig, at: (f: string) => string): Promise<TFieldError[]> {
  const known = await catalogue.selectExistingLibraryFileIds(db, [...config.mainLibraryFiles, ...config.accountLibraryFiles]);
  const errors: TFieldError[] = [];
  for (const field of ['mainLibraryFiles', 'accountLibraryFiles'] as const) {
    config[field].forEach((id, i) => {
      if (!known.has(id)) errors.push(fieldError(at(`${field}.${i}`), `Library file ${id} does not exist`, id));
    });
  }
  return errors;
}

async function checkVersions(db: DbOrTx, config: TMachineConfig, at: (f: string) => string): Promise<TFieldError[]> {
  const commits: { key: (typeof CONFIG_COMPONENTS)[number]; hash: string }[] = [];
  const builds: { key: (typeof CONFIG_COMPONENTS)[number]; url: string }[] = [];
  const latest: { key: (typeof CONFIG_COMPONENTS)[number]; branch: string }[] = [];
  for (const key of CONFIG_COMPONENTS) {
    const version = config[`${key}Version`];
    const mode = config[`${key}VersionMode`];
    if (mode === 'Select' && version.includes('://')) builds.push({ key, url: version });
    else if (mode === 'Select') commits.push({ key, hash: version.split('|').pop() ?? '' });
    else if (mode === 'Latest') latest.push({ key, branch: version.slice(0, -'|latest'.length) });
  }
  const [knownCommits, knownBuilds, branches] = await readAll(db, [
    () => catalogue.selectKnownCommits(db, commits.map((c) => ({ software: c.key, hash: c.hash }))),
    () => catalogue.selectKnownBuilds(db, builds.map((b) => b.url)),
    () => (latest.some((l) => l.branch !== '') ? catalogue.selectBranchNames(db) : Promise.resolve(new Set<string>())),
  ]);
  const errors: TFieldError[] = [];
  for (const c of commits) {
    if (!knownCommits.has(`${c.key}/${c.hash}`)) {
      errors.push(fieldError(at(`${c.key}Version`), `${COMPONENT_LABELS[c.key]} version is not a known commit`, config[`${c.key}Version`]));
    }
  }
  for (const b of builds) {
    if (!knownBuilds.has(`${b.key}/${b.url}`)) {
      errors.push(fieldError(at(`${b.key}Version`), `${COMPONENT_LABELS[b.key]} version is not a known build`, b.url));
    }
  }
  for (const l of latest) {
    if (l.branch.includes('|') || (l.branch !== '' && !branches.has(l.branch))) {
      errors.push(fieldError(at(`${l.key}Version`), `${COMPONENT_LABELS[l.key]} branch '${l.branch}' does not exist`, config[`${l.key}Version`]));
    }
  }
  return errors;
}

// ---------------------------------------------------------------- backup and idle

/** Backup times in 30-minute steps, invalid and duplicate ones dropped, sorted (spec 1 §5). */
export function normaliseBackup(b: TBackupConfig): TBackupConfig {
  return { ...b, times: normaliseBackupTimes(b.times) };
}

/** Idle entries with ISO UTC times, in the order they happen. */
export function normaliseIdleSchedules(entries: TIdleScheduleEntry[]): TIdleScheduleEntry[] {
  return entries
    .map((e) => ({ stopAt: new Date(e.stopAt).toISOString(), resumeAfter: e.resumeAfter }))
    .sort((a, b) => a.stopAt.localeCompare(b.stopAt));
}
