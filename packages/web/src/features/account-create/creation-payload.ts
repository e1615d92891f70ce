/**
 * The flattened creation payload of spec 1 §3 ("Creation payload"), built from
 * the create form's section forms (see `account-settings/shared/section-forms`),
 * and the way back: which form field a server field error belongs to.
 *
 * - properties: contact and billing are flattened into contactName, contactEmail,
 *   contactPhone1/2, billingPeriod, billingAmount;
 * - sites: the first site is the site master (`siteMaster*` fields); an
 *   InstancePerSiteMaster account sends every site in `sites`;
 * - library files: `mainLibraryFiles` (ids) and `accountLibraryFile` (the first id)
 *   from the instance settings' library selections;
 * - add-on accounts (class 200) send properties and license only.
 */
import {
  CLASS_ADD_ON,
  NEW_ACCOUNT_SITE,
  type TBackupConfig,
  type TCreateAccountRequest,
  type TIdleScheduleEntry,
  type TLicenseConfigInput,
  type TMachineConfigInput,
  type TSiteFields,
} from '@fleet/contracts';
import type { SectionKey } from '../account-settings/shared/section-forms';
import type { PropertiesValues } from '../account-settings/properties/properties-rules';

/** The sites form of the create screen: one row per site, the first is the site master. */
export interface SitesValues {
  sites: Partial<TSiteFields>[];
}

export interface CreateFormValues {
  properties: PropertiesValues;
  license: TLicenseConfigInput;
  instance: TMachineConfigInput;
  backup: TBackupConfig;
  idle: { idleSchedules: TIdleScheduleEntry[] };
  sites: SitesValues;
}

/** The first site of a new account (spec 1 §9). */
export const NEW_SITE_ROW: Partial<TSiteFields> = { ...NEW_ACCOUNT_SITE, domainName: '' };

const ids = (files: unknown): number[] | undefined =>
  Array.isArray(files) ? files.filter((f): f is number => typeof f === 'number') : undefined;

/** The `POST /accounts` body for the form's values. */
export function toCreationPayload(v: CreateFormValues): TCreateAccountRequest {
  const p = v.properties;
  const payload: TCreateAccountRequest = {
    classId: p.classId,
    parentId: p.parentId ?? null,
    name: p.name,
    urlFriendlyName: p.urlFriendlyName,
    description: p.description,
    customer: p.customer,
    contactName: p.contact.name,
    contactEmail: p.contact.email,
    contactPhone1: p.contact.phone1 || null,
    contactPhone2: p.contact.phone2 || null,
    maintainer: p.maintainer,
    billingPeriod: p.billing?.period,
    billingAmount: p.billing?.amount,
    managed: p.managed,
    whiteGlove: p.whiteGlove,
    autoTest: p.autoTest,
    autoTestBranch: p.autoTestBranch || null,
    licenseConfig: v.license,
  };
  if (p.classId === CLASS_ADD_ON) return payload;

  const sites = (v.sites.sites ?? []).filter((s) => s && (s.name ?? '').trim() !== '');
  const master = sites[0] ?? NEW_SITE_ROW;
  const main = ids(v.instance.mainLibraryFiles);
  const account = ids(v.instance.accountLibraryFiles);
  return {
    ...payload,
    siteMasterName: master.name ?? '',
    siteMasterUrlFriendlyName: master.urlFriendlyName ?? '',
    siteMasterDomainName: master.domainName ?? '',
    siteMasterPort: master.port ?? NEW_ACCOUNT_SITE.port,
    machineConfig: v.instance,
    ...(main ? { mainLibraryFiles: main } : {}),
    ...(account ? { accountLibraryFile: account[0] ?? null } : {}),
    backupConfig: v.backup,
    idleSchedules: v.idle.idleSchedules ?? [],
    sites: v.license.instancePolicy === 'InstancePerSiteMaster' ? sites.map((s) => ({ ...NEW_SITE_ROW, ...s }) as TSiteFields) : [],
  };
}

const FLAT_PROPERTIES: Record<string, (string | number)[]> = {
  contactName: ['contact', 'name'],
  contactEmail: ['contact', 'email'],
  contactPhone1: ['contact', 'phone1'],
  contactPhone2: ['contact', 'phone2'],
  billingPeriod: ['billing', 'period'],
  billingAmount: ['billing', 'amount'],
};

const SITE_MASTER: Record<string, string> = {
  siteMasterName: 'name',
  siteMasterUrlFriendlyName: 'urlFriendlyName',
  siteMasterDomainName: 'domainName',
  siteMasterPort: 'port',
};

/**
 * Where a server field error of `POST /accounts` (its `propertyName`, dotted,
 * e.g. `licenseConfig.maxSites`, `contactEmail`, `sites.1.urlFriendlyName`)
 * belongs: the section form and the field's name path. Undefined when no field
 * of the form shows it (the error is then listed in the toast only).
 */
export function fieldOfCreationError(propertyName: string): { section: SectionKey | 'sites'; name: (string | number)[] } | undefined {
  const [head, ...rest] = propertyName.split('.');
  const path = rest.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  if (!head) return undefined;
  if (head === 'licenseConfig' && path.length > 0) return { section: 'license', name: path };
  if (head === 'machineConfig' && path.length > 0) return { section: 'instance', name: path };
  if (head === 'backupConfig' && path.length > 0) return { section: 'backup', name: path };
  if (head === 'idleSchedules') return { section: 'idle', name: ['idleSchedules', ...path] };
  if (head === 'sites') return path.length > 0 ? { section: 'sites', name: ['sites', ...path] } : undefined;
  if (head in SITE_MASTER) return { section: 'sites', name: ['sites', 0, SITE_MASTER[head]!] };
  if (head in FLAT_PROPERTIES) return { section: 'properties', name: FLAT_PROPERTIES[head]! };
  if (head === 'mainLibraryFiles' || head === 'accountLibraryFile') return undefined;
  return { section: 'properties', name: [head, ...path] };
}
