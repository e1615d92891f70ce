/**
 * Mapping between templates and the section forms (spec 1 §2 Manage Templates
 * dialog, §3 Template, §4 Template picking). Pure functions, no React.
 *
 * A template (`TTemplate` of `GET /template/{type}`) holds its settings flat at
 * the top level beside its own fields (id, type, name, isPublic, isTemplate,
 * account, owner, updatedAt). The forms hold the contract shape of each section
 * (see `section-forms.ts`):
 *
 * | kind              | form       | template settings                                   |
 * |-------------------|------------|-----------------------------------------------------|
 * | general           | properties | classId, description, customer, managed, ...,       |
 * |                   |            | contactName/Email/Phone1/Phone2, billingPeriod/Amount |
 * |                   |            | (the form nests them: `contact.name`, `billing.period`) |
 * | license-settings  | license    | licenseConfig without expirationTime, matchedTemplate |
 * | instance-settings | instance   | machineConfig (autoStopTime null: none fixed)         |
 * | backup-settings   | backup     | backupConfig                                         |
 *
 * Decisions (the specification leaves them open):
 * - The account's identity (name, URL name, parent) is never part of a general
 *   template and never overwritten by one.
 * - A license template loaded into the form records its name as the license's
 *   `matchedTemplate`; a template account's license clears it.
 * - An instance template does not carry the form's auto-stop moment (a fixed
 *   date is meaningless when the template is reused later); a template that
 *   holds one sets it, one without leaves the form's.
 * - For an existing account the fields the server locks (region, image, SSL,
 *   sample data and its file) are not loaded, and a general template does not
 *   move the account into or out of the add-on class (200).
 * - A field emptied in the form (null) that the template cannot hold as null
 *   is left out when saving, so the template takes the field's default.
 */
import {
  CLASS_ADD_ON,
  CONFIG_COMPONENTS,
  flatContactAndBilling,
  type TPushAccountPropertiesRequest,
  type TTemplate,
  type TTemplateType,
} from '@fleet/contracts';
import type { SectionKey } from '../account-settings/shared/section-forms';
import { SCHEMA_VALUES } from '../../lib/schema-values';

/** The form each kind of template loads into and is saved from. */
export const KIND_SECTION = {
  general: 'properties',
  'license-settings': 'license',
  'instance-settings': 'instance',
  'backup-settings': 'backup',
} as const satisfies Record<TTemplateType, SectionKey>;

/** Tab labels of the kinds. */
export const KIND_LABELS: Record<TTemplateType, string> = {
  general: 'General',
  'license-settings': 'License Settings',
  'instance-settings': 'Instance Settings',
  'backup-settings': 'Backup Settings',
};

/** Save toasts of each kind (spec 1 §8). */
export const KIND_SAVE_TOASTS: Record<TTemplateType, { success: string; error: string }> = {
  general: { success: 'General template saved', error: 'Error occurred saving general template' },
  'license-settings': { success: 'License template saved', error: 'Error occurred saving license settings template' },
  'instance-settings': { success: 'Instance settings template saved', error: 'Error occurred saving instance settings template' },
  'backup-settings': { success: 'Backup settings template saved', error: 'Error occurred saving backup settings template' },
};

/** Kinds an account of `classId` has: an add-on account (class 200) has no instance or backup section (spec 1 §1). */
export function kindsForClass(classId: number | undefined): TTemplateType[] {
  const all: TTemplateType[] = ['general', 'license-settings', 'instance-settings', 'backup-settings'];
  return classId === CLASS_ADD_ON ? all.filter((k) => k !== 'instance-settings' && k !== 'backup-settings') : all;
}

// ---------------------------------------------------------------- key lists

/** The settings a template of each kind holds, as its contract schema (`TEMPLATE_VALUE_SCHEMAS`) lists them, in that order. */
const LICENSE_KEYS = SCHEMA_VALUES.templateKeys['license-settings'];
const LICENSE_NULLABLE: ReadonlySet<string> = new Set([
  'cloudInstanceType',
  'redisCloudInstanceType',
  'addOnSiteName',
  'addOnSitename',
  'addOnAreaCategoryName',
]);

/** The component versions and modes go last, after the instance's other settings. */
const INSTANCE_COMPONENT_KEYS: readonly string[] = CONFIG_COMPONENTS.flatMap((c) => [`${c}VersionMode`, `${c}Version`]);
const INSTANCE_KEYS = [
  ...SCHEMA_VALUES.templateKeys['instance-settings'].filter((key) => !INSTANCE_COMPONENT_KEYS.includes(key)),
  ...INSTANCE_COMPONENT_KEYS,
];
const INSTANCE_NULLABLE: ReadonlySet<string> = new Set(['sampleDataFile', 'marketingVersion', 'autoStopTime', 'bundleVersion', 'accountLibraryFile']);
/** Instance fields the server locks once an account has them (spec 1 §2 Instance Settings card). */
const LOCKED_INSTANCE_KEYS = ['region', 'vmImageName', 'enableSsl', 'includeSampleData', 'sampleDataFile'] as const;

const BACKUP_KEYS = SCHEMA_VALUES.templateKeys['backup-settings'];

/** The general template's own (not contact or billing) fields, and which of them may be null. */
const GENERAL_PLAIN_KEYS = ['classId', 'description', 'customer', 'managed', 'whiteGlove', 'autoTest', 'autoTestBranch', 'maintainer'] as const;
const GENERAL_NULLABLE: ReadonlySet<string> = new Set(['autoTestBranch', 'contactPhone1', 'contactPhone2']);

/** The general template's settings, flattened (spec 1 §3 Template). */
export interface GeneralTemplateValues {
  classId?: number;
  description?: string;
  customer?: string;
  managed?: boolean;
  whiteGlove?: boolean;
  autoTest?: boolean;
  autoTestBranch?: string | null;
  maintainer?: string;
  contactName?: string;
  contactEmail?: string;
  contactPhone1?: string | null;
  contactPhone2?: string | null;
  billingPeriod?: string;
  billingAmount?: number;
}

/** The part of the properties form (`TPushAccountPropertiesRequest` without version) a general template touches. */
export type PropertiesTemplatePatch = Partial<Pick<TPushAccountPropertiesRequest, (typeof GENERAL_PLAIN_KEYS)[number]>> & {
  contact?: { name?: string; email?: string; phone1?: string | null; phone2?: string | null };
  billing?: { period?: string; amount?: number };
};

type Values = Record<string, unknown>;

/** `keys` of `source` that are set: undefined always left out, null left out unless the key is in `nullable`. */
function pick(source: Values, keys: readonly string[], nullable: ReadonlySet<string>): Values {
  const out: Values = {};
  for (const key of keys) {
    const value = source[key];
    if (value === undefined || (value === null && !nullable.has(key))) continue;
    out[key] = value;
  }
  return out;
}

const asRecord = (value: unknown): Values => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Values) : {});

// ---------------------------------------------------------------- general ⇄ properties

/**
 * A general template's flat settings → the properties form's shape: contact and
 * billing nested (`contactName` → `contact.name`, `billingAmount` →
 * `billing.amount`), other fields as they are. Fields the template lacks are left
 * out, so the form keeps them.
 */
export function generalTemplateToProperties(template: GeneralTemplateValues): PropertiesTemplatePatch {
  const t = template as Values;
  const patch = pick(t, GENERAL_PLAIN_KEYS, GENERAL_NULLABLE) as PropertiesTemplatePatch;
  const contact = pick(
    { name: t.contactName, email: t.contactEmail, phone1: t.contactPhone1, phone2: t.contactPhone2 },
    ['name', 'email', 'phone1', 'phone2'],
    new Set(['phone1', 'phone2']),
  );
  const billing = pick({ period: t.billingPeriod, amount: t.billingAmount }, ['period', 'amount'], new Set());
  if (Object.keys(contact).length > 0) patch.contact = contact;
  if (Object.keys(billing).length > 0) patch.billing = billing;
  return patch;
}

/**
 * The properties form's values → a general template's flat settings (spec 1 §3:
 * contact and billing flattened with the prefixes contact and billing). The
 * account's name, URL name, parent and version are not part of a template.
 */
export function propertiesToGeneralTemplate(values: Values): GeneralTemplateValues {
  const contact = asRecord(values.contact);
  const billing = asRecord(values.billing);
  return pick(
    { ...values, ...flatContactAndBilling(contact, billing) },
    [...GENERAL_PLAIN_KEYS, 'contactName', 'contactEmail', 'contactPhone1', 'contactPhone2', 'billingPeriod', 'billingAmount'],
    GENERAL_NULLABLE,
  ) as GeneralTemplateValues;
}

// ---------------------------------------------------------------- any kind

export interface LoadOptions {
  /** The account exists (Edit account): locked instance fields and the add-on class are kept. */
  existingAccount?: boolean;
  /** The class of the account the form belongs to. */
  accountClassId?: number;
}

/**
 * A template (or template account) of `kind` → the values to give
 * `forms[KIND_SECTION[kind]].setFieldsValue`. See the module notes for what is
 * left out.
 */
export function templateToFormValues(kind: TTemplateType, template: TTemplate, opts: LoadOptions = {}): Values {
  const t = template as Values;
  switch (kind) {
    case 'general': {
      const patch = generalTemplateToProperties(t as GeneralTemplateValues);
      const crossesAddOn = patch.classId !== undefined && (patch.classId === CLASS_ADD_ON) !== (opts.accountClassId === CLASS_ADD_ON);
      if (opts.existingAccount && crossesAddOn) delete patch.classId;
      return patch;
    }
    case 'license-settings':
      return { ...pick(t, LICENSE_KEYS, LICENSE_NULLABLE), matchedTemplate: template.isTemplate ? template.name : null };
    case 'instance-settings': {
      const values = pick(t, INSTANCE_KEYS, INSTANCE_NULLABLE);
      if (values.autoStopTime === null) delete values.autoStopTime;
      if (opts.existingAccount) for (const key of LOCKED_INSTANCE_KEYS) delete values[key];
      return values;
    }
    case 'backup-settings':
      return pick(t, BACKUP_KEYS, new Set());
  }
}

/**
 * The values of the form of `kind` (`getFieldsValue(true)`) → the flat settings
 * of a template of that kind, the body of `POST /template/{type}` and
 * `PUT /template/{type}/{id}` beside name and isPublic.
 */
export function formValuesToTemplate(kind: TTemplateType, values: Values): Values {
  switch (kind) {
    case 'general':
      return propertiesToGeneralTemplate(values) as Values;
    case 'license-settings':
      return pick(values, LICENSE_KEYS, LICENSE_NULLABLE);
    case 'instance-settings': {
      const out = pick(values, INSTANCE_KEYS, INSTANCE_NULLABLE);
      delete out.autoStopTime;
      return out;
    }
    case 'backup-settings':
      return pick(values, BACKUP_KEYS, new Set());
  }
}

// ---------------------------------------------------------------- list filters

export type TemplateSource = 'template' | 'account';

export interface TemplateFilter {
  /** Case-insensitive part of the name. */
  search: string;
  /** Only names starting with 'v' (spec 1 §5: "keeps templates whose name starts with 'v'"). */
  versionOnly: boolean;
  /** Templates (isTemplate) or template accounts. */
  source: TemplateSource;
}

/** The dialog's list after its filters (spec 1 §2 Manage Templates: search, version-only, Template/Account). */
export function filterTemplates(items: readonly TTemplate[], filter: TemplateFilter): TTemplate[] {
  const needle = filter.search.trim().toLowerCase();
  return items.filter(
    (item) =>
      item.isTemplate === (filter.source === 'template') &&
      (!filter.versionOnly || item.name.startsWith('v')) &&
      (needle === '' || item.name.toLowerCase().includes(needle)),
  );
}
