/**
 * Creating an account through a draft (spec 1 §2 Create account, §3 Creation
 * payload, §4 lifecycle draft → preview → created; DESIGN §6): `POST /accounts`
 * validates the flattened creation payload and saves a draft, `GET
 * /draft-accounts/{id}` answers it with its planned sites and machines,
 * `POST /draft-accounts` updates it, and `POST /accounts/create-from-draft`
 * turns it into the account.
 */
import { z } from 'zod';
import { ZBillingPeriod } from './accounts.js';
import { CLASS_ADD_ON } from './constants.js';
import { ZRefId, zBoundedMap } from './common.js';
import { ZConfigMap } from './machines.js';
import {
  DEVOPS_EMAIL,
  URL_NAME_MESSAGE,
  URL_NAME_PATTERN,
  ZBackupConfig,
  ZIdleSchedules,
  ZLicenseConfig,
  ZMachineConfig,
  requiredString,
  toUrlFriendlyName,
} from './account-sections.js';
import { ZBodyClassId } from './classes.js';
import { ZSiteFields, addOnParentRule, requiredEmail } from './account-detail.js';

/** New account site defaults (spec 1 §9): 'Site 1', site1, port 8080. */
export const NEW_ACCOUNT_SITE = { name: 'Site 1', urlFriendlyName: 'site1', port: 8080 } as const;

/**
 * The flattened creation payload (spec 1 §3): contact and billing flattened,
 * `siteMaster*` describing the first site, `mainLibraryFiles` (ids) and
 * `accountLibraryFile` (the first id) overriding the machineConfig's library
 * files when sent, and `sites` for InstancePerSiteMaster accounts (when empty,
 * the one site of the `siteMaster*` fields). Omitted fields take the new account
 * defaults of spec 1 §9; a blank `urlFriendlyName` is derived from the name.
 * Add-on accounts (class 200) keep only properties and license.
 */
export const ZCreateAccountFields = z.object({
  classId: ZBodyClassId.default(1),
  parentId: ZRefId.nullable().default(null),
  name: requiredString('Account name is required'),
  urlFriendlyName: z.string().trim().max(100).default(''),
  description: z.string().trim().max(2000).default(''),
  customer: z.string().trim().max(200).default(''),
  contactName: requiredString('Contact name is required'),
  contactEmail: requiredEmail('Contact email is required'),
  contactPhone1: z.string().trim().max(50).nullable().default(null),
  contactPhone2: z.string().trim().max(50).nullable().default(null),
  maintainer: z.string().trim().max(254).default(DEVOPS_EMAIL),
  billingPeriod: ZBillingPeriod.default('Biweekly'),
  billingAmount: z.number().min(1, 'Billing amount must be at least 1').max(100_000_000).default(10),
  managed: z.boolean().default(true),
  whiteGlove: z.boolean().default(false),
  autoTest: z.boolean().default(false),
  autoTestBranch: z.string().trim().max(200).nullable().default(null),
  siteMasterName: z.string().trim().max(200).default(NEW_ACCOUNT_SITE.name),
  siteMasterUrlFriendlyName: z.string().trim().max(100).default(NEW_ACCOUNT_SITE.urlFriendlyName),
  siteMasterDomainName: z.string().trim().toLowerCase().max(253).default(''),
  siteMasterPort: z.number().int().min(1, 'Port must be between 1 and 65535').max(65535, 'Port must be between 1 and 65535').default(8080),
  mainLibraryFiles: z.array(ZRefId).max(100).optional(),
  accountLibraryFile: ZRefId.nullable().optional(),
  licenseConfig: ZLicenseConfig.prefault({}),
  machineConfig: ZMachineConfig.prefault({}),
  backupConfig: ZBackupConfig.prefault({}),
  idleSchedules: ZIdleSchedules.default([]),
  sites: z.array(ZSiteFields).max(200).default([]),
});

/**
 * Body-only rules of the creation payload (spec 1 §5), run even when other fields
 * failed so that one answer lists every error: the add-on parent and add-on names
 * for class 200, the image for the others, a URL name (given or derived), one
 * site for AllInOne, no more sites than maxSites, unique site URL names.
 */
export function creationRules(value: unknown, ctx: z.RefinementCtx): void {
  if (!value || typeof value !== 'object') return;
  const v = value as Partial<z.output<typeof ZCreateAccountFields>>;
  addOnParentRule(v, ctx);
  const name = typeof v.name === 'string' ? v.name : '';
  const url = typeof v.urlFriendlyName === 'string' && v.urlFriendlyName ? v.urlFriendlyName : toUrlFriendlyName(name);
  if (name && !url) {
    ctx.addIssue({ code: 'custom', message: 'Account URL name is required', path: ['urlFriendlyName'], input: v.urlFriendlyName ?? null });
  } else if (url && !URL_NAME_PATTERN.test(url)) {
    ctx.addIssue({ code: 'custom', message: URL_NAME_MESSAGE, path: ['urlFriendlyName'], input: url });
  }
  const license = (v.licenseConfig ?? {}) as Partial<z.output<typeof ZLicenseConfig>>;
  if (v.classId === CLASS_ADD_ON) {
    if (!license.addOnSiteName && !license.addOnSitename) {
      ctx.addIssue({ code: 'custom', message: 'Add-on Site Name is required', path: ['licenseConfig', 'addOnSiteName'], input: license.addOnSiteName ?? null });
    }
    if (!license.addOnAreaCategoryName) {
      ctx.addIssue({
        code: 'custom',
        message: 'Add-on Area Category Name is required',
        path: ['licenseConfig', 'addOnAreaCategoryName'],
        input: license.addOnAreaCategoryName ?? null,
      });
    }
    return;
  }
  const machine = (v.machineConfig ?? {}) as Partial<z.output<typeof ZMachineConfig>>;
  if (typeof machine.vmImageName !== 'string' || machine.vmImageName === '') {
    ctx.addIssue({ code: 'custom', message: 'Image is required', path: ['machineConfig', 'vmImageName'], input: machine.vmImageName ?? null });
  }
  const sites = Array.isArray(v.sites) ? v.sites : [];
  if (license.instancePolicy === 'AllInOne' && sites.length > 1) {
    ctx.addIssue({ code: 'custom', message: 'An AllInOne account has exactly one site', path: ['sites'], input: sites.length });
  }
  if (license.instancePolicy === 'InstancePerSiteMaster' && typeof license.maxSites === 'number' && sites.length > license.maxSites) {
    ctx.addIssue({ code: 'custom', message: `The license allows at most ${license.maxSites} sites`, path: ['sites'], input: sites.length });
  }
  if (sites.length === 0) {
    const siteName = typeof v.siteMasterName === 'string' ? v.siteMasterName : '';
    const siteUrl = v.siteMasterUrlFriendlyName || toUrlFriendlyName(siteName);
    if (!siteName) ctx.addIssue({ code: 'custom', message: 'Site name is required', path: ['siteMasterName'], input: v.siteMasterName ?? null });
    else if (!URL_NAME_PATTERN.test(siteUrl)) {
      ctx.addIssue({ code: 'custom', message: URL_NAME_MESSAGE, path: ['siteMasterUrlFriendlyName'], input: siteUrl });
    }
  }
  const seen = new Set<string>();
  sites.forEach((site, i) => {
    const siteUrl = site && typeof site.name === 'string' ? site.urlFriendlyName || toUrlFriendlyName(site.name) : '';
    if (!siteUrl) return;
    if (!URL_NAME_PATTERN.test(siteUrl)) {
      ctx.addIssue({ code: 'custom', message: URL_NAME_MESSAGE, path: ['sites', i, 'urlFriendlyName'], input: siteUrl });
    } else if (seen.has(siteUrl)) {
      ctx.addIssue({ code: 'custom', message: 'Site URL name must be unique within the account', path: ['sites', i, 'urlFriendlyName'], input: siteUrl });
    }
    seen.add(siteUrl);
  });
}

/** `POST /accounts`: validates and saves a draft; answers its id. */
export const ZCreateAccountRequest = ZCreateAccountFields.superRefine(creationRules, { when: () => true });
export type TCreateAccountRequest = z.input<typeof ZCreateAccountRequest>;
/** The payload as the server keeps it in the draft: defaults applied, normalised. */
export type TCreateAccountPayload = z.output<typeof ZCreateAccountFields>;

/** `POST /draft-accounts`: the draft's id and its new payload. */
export const ZUpdateDraftAccountRequest = ZCreateAccountFields.extend({ id: ZRefId }).superRefine(creationRules, {
  when: () => true,
});
export type TUpdateDraftAccountRequest = z.input<typeof ZUpdateDraftAccountRequest>;

export const ZDraftAccountIdResponse = z.object({ draftAccountId: z.number().int() });
export type TDraftAccountIdResponse = z.infer<typeof ZDraftAccountIdResponse>;

/** A planned site of a draft: what create-from-draft inserts. */
export const ZPlannedSite = z.object({
  name: z.string(),
  urlFriendlyName: z.string(),
  domainName: z.string(),
  port: z.number().int(),
});
export type TPlannedSite = z.infer<typeof ZPlannedSite>;

/**
 * A planned machine (DESIGN §6): AllInOne, one machine that is launcher and site
 * master; InstancePerSiteMaster, one launcher plus one site master per site; add-ons
 * none. `componentConfig` maps `rootKey.subKey` to a typed value, the catalogue
 * default for this machine with the variables substituted. `name` is the key of
 * `machineComponentConfigs` in create-from-draft.
 */
export const ZPlannedMachine = z.object({
  name: z.string(),
  isLauncher: z.boolean(),
  isSiteMaster: z.boolean(),
  siteUrlFriendlyName: z.string().nullable(),
  instanceTypeId: z.number().int().nullable(),
  componentConfig: z.record(z.string(), z.unknown()),
});
export type TPlannedMachine = z.infer<typeof ZPlannedMachine>;

/** A component config key as the preview editor needs it. */
export const ZComponentConfigKey = z.object({
  key: z.string(),
  dataType: z.enum(['number', 'boolean', 'json']).nullable(),
  protected: z.boolean(),
  siteSpecific: z.boolean(),
});
export type TComponentConfigKey = z.infer<typeof ZComponentConfigKey>;

/** `GET /draft-accounts/{id}`. `accountId` is set once the draft became an account. */
export const ZDraftAccount = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  accountId: z.number().int().nullable(),
  payload: ZCreateAccountFields,
  sites: z.array(ZPlannedSite),
  machines: z.array(ZPlannedMachine),
  componentConfigKeys: z.array(ZComponentConfigKey),
});
export type TDraftAccount = z.infer<typeof ZDraftAccount>;

/**
 * `POST /accounts/create-from-draft`. `machineComponentConfigs` maps a planned
 * machine's name to its adjusted component config (the whole map); machines left
 * out keep the planned defaults.
 */
export const ZCreateFromDraftRequest = z.object({
  draftAccountId: ZRefId,
  machineComponentConfigs: zBoundedMap(z.string().max(200), ZConfigMap, 1000).default({}),
});
export type TCreateFromDraftRequest = z.input<typeof ZCreateFromDraftRequest>;
export const ZCreateFromDraftResponse = z.object({ accountId: z.number().int() });
export type TCreateFromDraftResponse = z.infer<typeof ZCreateFromDraftResponse>;
