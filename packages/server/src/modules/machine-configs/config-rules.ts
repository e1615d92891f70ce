/**
 * Rules of machine configurations (spec 2 §5, §9; spec 1 §2 Create account
 * preview; spec 3 §2.5; DESIGN §6), without I/O. The one implementation of
 * component and deployer config defaults: `GET /machines/{id}/default-*-config`,
 * the machines a draft plans (`drafts.planner.ts`), the deployer config of the
 * machines create-from-draft inserts, and `POST /accounts/{id}/machines` all
 * call {@link defaultsFor}.
 *
 * - Which definitions apply to a machine: `launcher.*` keys to launchers,
 *   `siteMaster.*` keys and site-specific keys to site masters, others to all;
 *   only those of the machine's IRMN version (since ≤ version < deprecated at;
 *   with no known version, every definition not deprecated).
 * - The default of a key: the Linux-specific value on a Linux image when set
 *   (the catalogue's Linux override; null "inherits the default"), else the
 *   on-prem value for class On Premise, else the SaaS value. A default that is
 *   null (no value for this machine, or a definition created without defaults)
 *   is the default of its type: number 0, boolean false, string empty, json
 *   empty object (spec 2 §5, §9). Every applicable key is present.
 * - The variables protocol (https with SSL), account_name, account_url_name,
 *   site_name, site_url_name and site_port are substituted; a variable without a
 *   value (site variables on a machine without a site) stays as written. Then
 *   the text is typed by dataType; text that is not of the type (a number key
 *   whose text is not a number, json that does not parse) gives the type's
 *   default, so a default always passes {@link hasConfigType}. Boolean text `null`
 *   is null (booleans allow null).
 * - A saved configuration: every key `rootKey.subKey` has a definition, every
 *   value has its definition's type (booleans may be null), and protected keys
 *   keep their values (read-only).
 */
import { CLASS_ON_PREMISE, CONFIG_KEY, configTypeDefault, hasConfigType, type TFieldError } from '@fleet/contracts';
import type { ConfigDefinition } from './machine-configs.repository.js';

export type { ConfigDefinition } from './machine-configs.repository.js';

/**
 * What the defaults of one machine depend on. `selectSubstitutionFacts` answers
 * it for existing machines; the draft planner builds it for planned ones.
 */
export interface MachineFacts {
  isLauncher: boolean;
  isSiteMaster: boolean;
  /** The account's class: On Premise (6) takes the on-prem values. */
  accountClassId: number;
  accountName: string;
  accountUrlName: string;
  /** The account's machine config; only `enableSsl === true` is read (protocol https). */
  machineConfig: { enableSsl?: unknown } | null;
  /** The machine's site; null on a machine without a site. */
  siteName: string | null;
  siteUrlName: string | null;
  sitePort: number | null;
  /** The account image's OS (`Windows`, `Linux`) and IRMN version name; null when the image is unknown. */
  osType: string | null;
  irmnVersion: string | null;
}

const NUMERIC = /^\d+$/;

/**
 * Orders dotted version names: -1, 0 or 1, never NaN. Numeric parts compare as
 * numbers (`8.10` after `8.2`), a missing part counts as `0` (`8.1` equals
 * `8.1.0`), other parts compare as text with their digits as numbers
 * (`8.2-rc1` before `8.2-rc2`).
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const d = NUMERIC.test(x) && NUMERIC.test(y) ? Number(x) - Number(y) : x.localeCompare(y, 'en', { numeric: true });
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Whether the definition exists at the IRMN version (null: unknown, then only if never deprecated). */
export function availableAt(def: Pick<ConfigDefinition, 'sinceVersion' | 'deprecatedAtVersion'>, irmnVersion: string | null): boolean {
  if (!irmnVersion) return def.deprecatedAtVersion === null;
  if (def.sinceVersion && compareVersions(def.sinceVersion, irmnVersion) > 0) return false;
  return !def.deprecatedAtVersion || compareVersions(irmnVersion, def.deprecatedAtVersion) < 0;
}

/** Whether the definition applies to the machine: its role (launcher, site master) and its version. */
export function applies(def: ConfigDefinition, m: MachineFacts): boolean {
  if (def.rootKey === 'launcher' && !m.isLauncher) return false;
  if ((def.rootKey === 'siteMaster' || def.siteSpecific) && !m.isSiteMaster) return false;
  return availableAt(def, m.irmnVersion);
}

/** The template with the machine's variables substituted; unknown or valueless variables stay as written. */
export function substitute(template: string, m: MachineFacts): string {
  const vars: Record<string, string | null> = {
    protocol: m.machineConfig?.enableSsl === true ? 'https' : 'http',
    account_name: m.accountName,
    account_url_name: m.accountUrlName,
    site_name: m.siteName,
    site_url_name: m.siteUrlName,
    site_port: m.sitePort === null ? null : String(m.sitePort),
  };
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** The typed value of a catalogue text; the type's default when it is null or not of the type. */
export function typed(raw: string | null, dataType: string | null): unknown {
  if (raw === null) return configTypeDefault(dataType);
  switch (dataType) {
    case 'number': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      return Number.isFinite(n) ? n : configTypeDefault(dataType);
    }
    case 'boolean':
      return raw === 'null' ? null : raw === 'true';
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return configTypeDefault(dataType);
      }
    default:
      return raw;
  }
}

/** The catalogue text that is the definition's default for the machine (before substitution), or null. */
function defaultText(def: ConfigDefinition, m: MachineFacts): string | null {
  if (m.osType === 'Linux' && def.linux !== null) return def.linux;
  return m.accountClassId === CLASS_ON_PREMISE ? def.onPrem : def.saas;
}

/** The machine's default configuration from the definitions: `{ 'rootKey.subKey': typed value }` of every definition that applies. */
export function defaultsFor(defs: ConfigDefinition[], m: MachineFacts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    if (!applies(def, m)) continue;
    const raw = defaultText(def, m);
    out[`${def.rootKey}.${def.subKey}`] = typed(raw === null ? null : substitute(raw, m), def.dataType);
  }
  return out;
}

/**
 * Field errors of a configuration to save (named `<field>.<key>`), and the
 * protected keys whose value it would change.
 */
export function checkConfig(
  field: string,
  next: Record<string, unknown>,
  current: Record<string, unknown>,
  defs: ConfigDefinition[],
): { errors: TFieldError[]; protectedChanged: string[] } {
  const byKey = new Map(defs.map((d) => [`${d.rootKey}.${d.subKey}`, d]));
  const errors: TFieldError[] = [];
  for (const [key, value] of Object.entries(next)) {
    const def = byKey.get(key);
    const propertyName = `${field}.${key}`;
    if (!CONFIG_KEY.test(key)) errors.push({ propertyName, errorMessage: 'Keys are written rootKey.subKey', attemptedValue: value });
    else if (!def) errors.push({ propertyName, errorMessage: 'Unknown config key; create its definition first', attemptedValue: value });
    else if (!hasConfigType(value, def.dataType)) {
      errors.push({ propertyName, errorMessage: `Must be of type ${def.dataType ?? 'string'}`, attemptedValue: value });
    }
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const protectedChanged = defs
    .filter((d) => d.protected)
    .map((d) => `${d.rootKey}.${d.subKey}`)
    .filter((key) => !same(next[key], current[key]));
  return { errors, protectedChanged };
}
