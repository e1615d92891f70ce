/**
 * One account and its pushes (spec 1 §2 Edit account, §3 Account, Site, Service,
 * §5, §7 Accounts; DESIGN §5 versions): `GET /accounts/{id}`, `PUT /accounts/{id}`
 * (Push Account Properties), `GET`/`PUT /accounts/{id}/instance-settings`,
 * `PUT /accounts/{id}/license-settings`, `/backup-settings`, `/idle-schedule`,
 * `GET /accounts/{id}/sites`, `PUT /accounts/{id}/sites/{siteId}` and
 * `GET /accounts/{id}/software-status`.
 *
 * Every push carries the `version` of its section as last read; the server answers
 * 409 when the section changed since, and the new section with `version + 1`
 * otherwise.
 */
import { z } from 'zod';
import { ACCOUNT_IDENTITY_FIELDS, ZBillingPeriod, ZInstancePolicy, ZMachineStatusCounts } from './accounts.js';
import { INT4_MAX, ZId, ZRefId } from './common.js';
import { ZBodyClassId, ZClassRef } from './classes.js';
import { CLASS_ADD_ON } from './constants.js';
import {
  DEVOPS_EMAIL,
  URL_NAME_MESSAGE,
  URL_NAME_PATTERN,
  ZBackupConfig,
  ZIdleSchedules,
  ZLicenseConfig,
  ZMachineConfig,
  requiredString,
} from './account-sections.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A section version as read from the server (a positive counter). */
export const ZSectionVersion = z.number({ error: 'The version of the section is required' }).int().min(1).max(INT4_MAX);


/** An email the specification requires: `message` when missing or blank, a format message otherwise. */
export const requiredEmail = (message: string) =>
  requiredString(message, 254).refine((v) => v === '' || EMAIL.test(v), 'Contact email is not a valid email address');

export const ZContact = z.object({
  name: requiredString('Contact name is required'),
  email: requiredEmail('Contact email is required'),
  phone1: z.string().trim().max(50).nullable().default(null),
  phone2: z.string().trim().max(50).nullable().default(null),
});

export const ZBilling = z.object({
  period: ZBillingPeriod.default('Biweekly'),
  amount: z.number().min(1, 'Billing amount must be at least 1').max(100_000_000).default(10),
});

/**
 * Account properties (spec 1 §2 Account Properties card), defaults of spec 1 §9.
 * Add-on accounts (class 200) are forced unmanaged, without auto test and white
 * glove, by the server; their parent is required (spec 1 §4, §5).
 */
export const ZAccountPropertiesFields = z.object({
  classId: ZBodyClassId.default(1),
  parentId: ZRefId.nullable().default(null),
  name: requiredString('Account name is required'),
  urlFriendlyName: requiredString('Account URL name is required', 100).refine((v) => v === '' || URL_NAME_PATTERN.test(v), URL_NAME_MESSAGE),
  description: z.string().trim().max(2000).default(''),
  customer: z.string().trim().max(200).default(''),
  contact: ZContact,
  maintainer: z.string().trim().max(254).default(DEVOPS_EMAIL),
  billing: ZBilling.prefault({}),
  managed: z.boolean().default(true),
  whiteGlove: z.boolean().default(false),
  autoTest: z.boolean().default(false),
  autoTestBranch: z.string().trim().max(200).nullable().default(null),
});

/** Cross-field rule of the properties (spec 1 §5): an add-on needs its parent. Runs even when other fields failed. */
export function addOnParentRule(value: unknown, ctx: z.RefinementCtx, path: PropertyKey[] = ['parentId']): void {
  if (!value || typeof value !== 'object') return;
  const v = value as { classId?: unknown; parentId?: unknown };
  if (v.classId === CLASS_ADD_ON && (v.parentId === null || v.parentId === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'Add-on parent account is required', path, input: v.parentId ?? null });
  }
}

export const ZAccountProperties = ZAccountPropertiesFields.superRefine((v, ctx) => addOnParentRule(v, ctx), { when: () => true });
export type TAccountProperties = z.output<typeof ZAccountProperties>;

/** `PUT /accounts/{id}` (Push Account Properties). */
export const ZPushAccountPropertiesRequest = ZAccountPropertiesFields.extend({ version: ZSectionVersion }).superRefine(
  (v, ctx) => addOnParentRule(v, ctx),
  { when: () => true },
);
export type TPushAccountPropertiesRequest = z.input<typeof ZPushAccountPropertiesRequest>;
export const ZAccountPropertiesResponse = ZAccountPropertiesFields.extend({ version: z.number().int() });
export type TAccountPropertiesResponse = z.infer<typeof ZAccountPropertiesResponse>;

/** `PUT /accounts/{id}/license-settings`. */
export const ZPushLicenseSettingsRequest = ZLicenseConfig.extend({ version: ZSectionVersion });
export type TPushLicenseSettingsRequest = z.input<typeof ZPushLicenseSettingsRequest>;
export const ZLicenseSettings = ZLicenseConfig.extend({ version: z.number().int() });
export type TLicenseSettings = z.infer<typeof ZLicenseSettings>;

/** `PUT /accounts/{id}/instance-settings`: the machineConfig with an image (spec 1 §5 'Image is required'). */
export const ZPushInstanceSettingsRequest = ZMachineConfig.extend({
  vmImageName: requiredString('Image is required'),
  version: ZSectionVersion,
});
export type TPushInstanceSettingsRequest = z.input<typeof ZPushInstanceSettingsRequest>;
/** `GET /accounts/{id}/instance-settings` and the answer of its PUT. */
export const ZInstanceSettings = ZMachineConfig.extend({ version: z.number().int() });
export type TInstanceSettings = z.infer<typeof ZInstanceSettings>;

/** `PUT /accounts/{id}/backup-settings`. */
export const ZPushBackupSettingsRequest = ZBackupConfig.extend({ version: ZSectionVersion });
export type TPushBackupSettingsRequest = z.input<typeof ZPushBackupSettingsRequest>;
export const ZBackupSettings = ZBackupConfig.extend({ version: z.number().int() });
export type TBackupSettings = z.infer<typeof ZBackupSettings>;

/** `PUT /accounts/{id}/idle-schedule`. */
export const ZPushIdleScheduleRequest = z.object({ idleSchedules: ZIdleSchedules, version: ZSectionVersion });
export type TPushIdleScheduleRequest = z.input<typeof ZPushIdleScheduleRequest>;
export const ZIdleScheduleSettings = z.object({ idleSchedules: ZIdleSchedules, version: z.number().int() });
export type TIdleScheduleSettings = z.infer<typeof ZIdleScheduleSettings>;

// ---------------------------------------------------------------- sites and services

/** A site (spec 1 §3): `domainName` is `{subdomain}.{PROVIDER_DOMAIN}`. */
export const ZSite = z.object({
  id: z.number().int(),
  name: z.string(),
  urlFriendlyName: z.string(),
  domainName: z.string(),
  port: z.number().int(),
});
export type TSite = z.infer<typeof ZSite>;
export const ZSitesResponse = z.array(ZSite);

/**
 * A site as a form sends it. `urlFriendlyName` is derived from the name when
 * blank; `domainName` is the subdomain (with or without the provider's suffix,
 * which is fixed) and defaults to `{site url name}-{account url name}`.
 */
export const ZSiteFields = z.object({
  name: requiredString('Site name is required'),
  urlFriendlyName: z.string().trim().max(100).default(''),
  domainName: z.string().trim().toLowerCase().max(253).default(''),
  port: z
    .number()
    .int('Port must be a whole number')
    .min(1, 'Port must be between 1 and 65535')
    .max(65535, 'Port must be between 1 and 65535')
    .default(8080),
});
export type TSiteFields = z.output<typeof ZSiteFields>;
/** `PUT /accounts/{id}/sites/{siteId}`. */
export const ZUpdateSiteRequest = ZSiteFields;
export type TUpdateSiteRequest = z.input<typeof ZUpdateSiteRequest>;

export const SERVICE_STATUSES = ['Running', 'Outdated', 'Degraded', 'Stopped', 'Pending'] as const;
/**
 * A service of the account (spec 1 §3 Service), derived from its live machines:
 * one per component they run or should run. See the server's software-status
 * docstring for how the status is decided.
 */
export const ZAccountService = z.object({
  name: z.string(),
  component: z.string(),
  status: z.enum(SERVICE_STATUSES),
  /** The version running everywhere, or null when none or several. */
  version: z.string().nullable(),
  machines: z.number().int(),
});
export type TAccountService = z.infer<typeof ZAccountService>;
export const ZSoftwareStatusResponse = z.array(ZAccountService);

// ---------------------------------------------------------------- the account

/** Section versions of an account: each push names the one it read. */
export const ZSectionVersions = z.object({
  properties: z.number().int(),
  license: z.number().int(),
  instance: z.number().int(),
  backup: z.number().int(),
  idle: z.number().int(),
});

/**
 * `GET /accounts/{id}` (spec 1 §3 Account). Add-on accounts have no
 * machineConfig, backupConfig, sites or launcher URL (null and empty).
 * Machines are listed by the machines calls (`GET /accounts/{id}/machines`);
 * `machineStats` counts them.
 */
export const ZAccountDetail = z.object({
  id: z.number().int(),
  draftId: z.number().int().nullable(),
  ...ACCOUNT_IDENTITY_FIELDS,
  siteMasterName: z.string().nullable(),
  siteMasterUrlFriendlyName: z.string().nullable(),
  siteMasterSubdomain: z.string().nullable(),
  siteMasterPort: z.number().int().nullable(),
  managed: z.boolean(),
  classId: z.number().int(),
  class: ZClassRef,
  parentId: z.number().int().nullable(),
  parent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  autoTest: z.boolean(),
  autoTestBranch: z.string().nullable(),
  whiteGlove: z.boolean(),
  maintainer: z.string(),
  contact: z.object({ name: z.string(), email: z.string(), phone1: z.string().nullable(), phone2: z.string().nullable() }),
  billing: z.object({ period: ZBillingPeriod, amount: z.number() }),
  billingPeriod: ZBillingPeriod,
  licenseConfig: ZLicenseConfig,
  machineConfig: ZMachineConfig.nullable(),
  backupConfig: ZBackupConfig.nullable(),
  idleSchedules: ZIdleSchedules,
  sites: z.array(ZSite),
  bundleVersion: z.string().nullable(),
  instancePolicy: ZInstancePolicy,
  vmImageName: z.string().nullable(),
  machineStats: ZMachineStatusCounts,
  isTemplate: z.boolean(),
  launcherUrl: z.string().nullable(),
  versions: ZSectionVersions,
});
export type TAccountDetail = z.infer<typeof ZAccountDetail>;

/**
 * An account's contact and billing as flat fields (spec 1 §3: a general
 * template's settings carry them with the prefixes contact and billing; the
 * audit names its field changes the same way). Typed as given: the console
 * passes a form's loose values, the server its checked properties.
 */
export function flatContactAndBilling<
  C extends { name?: unknown; email?: unknown; phone1?: unknown; phone2?: unknown },
  B extends { period?: unknown; amount?: unknown },
>(contact: C, billing: B) {
  return {
    contactName: contact.name as C['name'],
    contactEmail: contact.email as C['email'],
    contactPhone1: contact.phone1 as C['phone1'],
    contactPhone2: contact.phone2 as C['phone2'],
    billingPeriod: billing.period as B['period'],
    billingAmount: billing.amount as B['amount'],
  };
}

/**
 * The properties section of an account read with `GET /accounts/{id}`, in the
 * shape of a Push Account Properties body without its `version` (spec 1 §2
 * Account Properties card, §4): what the card's form holds, and what a push of
 * the account as it is sends. The contact and billing are copies.
 */
export function accountPropertiesOf(a: TAccountDetail): Omit<TPushAccountPropertiesRequest, 'version'> {
  return {
    classId: a.classId,
    parentId: a.parentId,
    name: a.name,
    urlFriendlyName: a.urlFriendlyName,
    description: a.description,
    customer: a.customer,
    contact: { ...a.contact },
    maintainer: a.maintainer,
    billing: { ...a.billing },
    managed: a.managed,
    whiteGlove: a.whiteGlove,
    autoTest: a.autoTest,
    autoTestBranch: a.autoTestBranch,
  };
}

export const ZAccountSiteParams = z.object({ id: ZId, siteId: ZId });

/** `POST /accounts/{id}/send-creation-mail`: where the creation email went (spec 1 §7, §8 'Creation email sent'). */
export const ZSendCreationMailResponse = z.object({
  messageId: z.string(),
  to: z.string(),
  delivery: z.enum(['smtp', 'outbox']),
});
export type TSendCreationMailResponse = z.infer<typeof ZSendCreationMailResponse>;
