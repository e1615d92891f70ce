/**
 * Rules of machine configurations (spec 2 §5; DESIGN §6), without I/O:
 *
 * - Which definitions apply to a machine: `launcher.*` keys to launchers,
 *   `siteMaster.*` keys and site-specific keys to site masters, others to all;
 *   only those of the machine's IRMN version (since ≤ version < deprecated).
 * - The default of a key: on-prem value for On Premise accounts, Linux value for
 *   Linux images (when set), else the SaaS value; the variables protocol,
 *   account_name, account_url_name, site_name, site_url_name and site_port
 *   substituted; typed by dataType, a missing value by type (number 0, boolean
 *   false, string empty, json empty object).
 * - A saved configuration: every key `rootKey.subKey` has a definition, every
 *   value has its definition's type (booleans may be null), and protected keys
 *   keep their values (read-only).
 */
import { CLASS_ON_PREMISE, type TFieldError } from '@fleet/contracts';
import type { ConfigDefinition, SubstitutionFacts } from './machine-configs.repository.js';

const KEY = /^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z0-9_.-]+$/;

/** Compares dotted version names numerically (`8.10` after `8.2`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function applies(def: ConfigDefinition, m: SubstitutionFacts): boolean {
  if (def.rootKey === 'launcher' && !m.isLauncher) return false;
  if ((def.rootKey === 'siteMaster' || def.siteSpecific) && !m.isSiteMaster) return false;
  const version = m.irmnVersion;
  if (!version) return def.deprecatedAtVersion === null;
  if (def.sinceVersion && compareVersions(def.sinceVersion, version) > 0) return false;
  return !def.deprecatedAtVersion || compareVersions(version, def.deprecatedAtVersion) < 0;
}

export function substitute(template: string, m: SubstitutionFacts): string {
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

/** The typed value of a catalogue text, or the default of the type. */
export function typed(raw: string | null, dataType: string | null): unknown {
  switch (dataType) {
    case 'number': {
      const n = raw === null ? NaN : Number(raw);
      return Number.isFinite(n) ? n : 0;
    }
    case 'boolean':
      return raw === 'true';
    case 'json':
      try {
        return raw === null ? {} : JSON.parse(raw);
      } catch {
        return {};
      }
    default:
      return raw ?? '';
  }
}

/** The machine's default configuration from the definitions. */
export function defaultsFor(defs: ConfigDefinition[], m: SubstitutionFacts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    if (!applies(def, m)) continue;
    const raw = m.accountClassId === CLASS_ON_PREMISE ? (def.onPrem ?? def.saas) : m.osType === 'Linux' ? (def.linux ?? def.saas) : def.saas;
    out[`${def.rootKey}.${def.subKey}`] = typed(raw === null ? null : substitute(raw, m), def.dataType);
  }
  return out;
}

function hasType(value: unknown, dataType: string | null): boolean {
  switch (dataType) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return value === true || value === false || value === null;
    case 'json':
      return value !== undefined;
    default:
      return typeof value === 'string';
  }
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
    if (!KEY.test(key)) errors.push({ propertyName, errorMessage: 'Keys are written rootKey.subKey', attemptedValue: value });
    else if (!def) errors.push({ propertyName, errorMessage: 'Unknown config key; create its definition first', attemptedValue: value });
    else if (!hasType(value, def.dataType)) {
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
