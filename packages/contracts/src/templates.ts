/**
 * Templates (spec 1 §2 Manage Templates dialog, §3 Template, §5, §7 Templates):
 * `GET`/`POST /template/{type}`, `PUT`/`DELETE /template/{type}/{id}` for the kinds
 * general, license-settings, instance-settings and backup-settings.
 *
 * A template is flattened: id, name, isPublic, isTemplate, account, then the
 * settings of its kind at the top level (general templates flatten contact and
 * billing as contactName, contactEmail, billingPeriod, billingAmount...). The list
 * of a kind also holds the template accounts (accounts marked isTemplate), with
 * `isTemplate: false` and `account` set, so the dialog's Template/Account filter
 * can load an account's settings. A private template is visible only to its owner.
 */
import { z } from 'zod';
import { ZBillingPeriod } from './accounts.js';
import { ZId } from './common.js';
import { DEVOPS_EMAIL, ZBackupConfig, ZLicenseConfig, ZMachineConfig, requiredString } from './account-sections.js';
import { ZBodyClassId } from './classes.js';

export const TEMPLATE_TYPES = ['general', 'license-settings', 'instance-settings', 'backup-settings'] as const;
export const ZTemplateType = z.enum(TEMPLATE_TYPES);
export type TTemplateType = z.infer<typeof ZTemplateType>;
/** Templates per page in the dialog (spec 1 §9). */
export const TEMPLATE_PAGE_SIZE = 7;

/** Settings of a general template: the account properties that are not the account's identity. */
export const ZGeneralTemplateValues = z.object({
  classId: ZBodyClassId.default(1),
  description: z.string().trim().max(2000).default(''),
  customer: z.string().trim().max(200).default(''),
  managed: z.boolean().default(true),
  whiteGlove: z.boolean().default(false),
  autoTest: z.boolean().default(false),
  autoTestBranch: z.string().trim().max(200).nullable().default(null),
  maintainer: z.string().trim().max(254).default(DEVOPS_EMAIL),
  contactName: z.string().trim().max(200).default(''),
  contactEmail: z.string().trim().max(254).default(''),
  contactPhone1: z.string().trim().max(50).nullable().default(null),
  contactPhone2: z.string().trim().max(50).nullable().default(null),
  billingPeriod: ZBillingPeriod.default('Biweekly'),
  billingAmount: z.number().min(1, 'Billing amount must be at least 1').default(10),
});

/** A license template has no expiration date or matched template of its own. */
export const ZLicenseTemplateValues = ZLicenseConfig.omit({ expirationTime: true, matchedTemplate: true });
/** An instance template does not fix an auto-stop moment unless one is saved. */
export const ZInstanceTemplateValues = ZMachineConfig.extend({
  autoStopTime: z.iso.datetime({ offset: true, error: 'Auto-stop time must be a date and time' }).nullable().default(null),
});
export const ZBackupTemplateValues = ZBackupConfig;

/** The settings schema of each kind, used by the server to validate a saved template. */
export const TEMPLATE_VALUE_SCHEMAS = {
  general: ZGeneralTemplateValues,
  'license-settings': ZLicenseTemplateValues,
  'instance-settings': ZInstanceTemplateValues,
  'backup-settings': ZBackupTemplateValues,
} as const satisfies Record<TTemplateType, z.ZodType>;

export const ZTemplateParams = z.object({ type: ZTemplateType });
export const ZTemplateIdParams = z.object({ type: ZTemplateType, id: ZId });

/** Most fields a template body may carry (the largest kind has fewer than 100). */
const MAX_TEMPLATE_FIELDS = 300;

/**
 * `POST /template/{type}` and `PUT /template/{type}/{id}`: name (required), isPublic
 * (default true) and the flattened settings of the kind, checked against the kind's
 * schema; a field left out takes its default.
 */
export const ZSaveTemplateRequest = z
  .object({
    name: requiredString('Template name is required'),
    isPublic: z.boolean().default(true),
  })
  .catchall(z.unknown())
  .refine((body) => Object.keys(body).length <= MAX_TEMPLATE_FIELDS, `At most ${MAX_TEMPLATE_FIELDS} fields`)
  .meta({ maxProperties: MAX_TEMPLATE_FIELDS });
export type TSaveTemplateRequest = z.input<typeof ZSaveTemplateRequest>;

/** A template or template account in a list, with its flattened settings. */
export const ZTemplate = z
  .object({
    id: z.number().int(),
    type: ZTemplateType,
    name: z.string(),
    isPublic: z.boolean(),
    isTemplate: z.boolean(),
    account: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    owner: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .catchall(z.unknown());
export type TTemplate = z.infer<typeof ZTemplate>;
export const ZTemplatesResponse = z.array(ZTemplate);
