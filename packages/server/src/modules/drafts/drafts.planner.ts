/**
 * What a draft account plans (DESIGN §6; spec 1 §2 Create account preview): its
 * sites and machines per instance policy, and each machine's default component
 * config from the catalogue (spec 3 §2.5).
 *
 * - AllInOne: one machine, launcher and site master of the one site.
 *   InstancePerSiteMaster: one launcher machine (no site) plus one site master
 *   machine per site. Add-on accounts: no sites, no machines.
 * - Machines are named `{account url name}-launcher` and
 *   `{account url name}-{site url name}`, as the seeded fleet names them.
 * - A config applies to a machine when the account's IRMN version (its image's)
 *   is at or after the config's version and before its deprecation; `launcher.*`
 *   only to launcher machines; `siteMaster.*` and site-specific configs only to
 *   site master machines; the others to every machine.
 * - Its value: the Linux value on a Linux image when there is one, else the
 *   on-premise value for class On Premise, else the SaaS value; a config without
 *   a value for the machine is left out. The variables `{protocol}` (https with
 *   SSL), `{account_name}`, `{account_url_name}`, `{site_name}`, `{site_url_name}`
 *   and `{site_port}` are substituted (site variables stay as written on a machine
 *   without a site), then the value is typed by the config's dataType.
 */
import { CLASS_ON_PREMISE, type TComponentConfigKey, type TPlannedMachine, type TPlannedSite } from '@fleet/contracts';

/** A component config definition as the planner needs it. */
export interface ConfigDefinition {
  rootKey: string;
  subKey: string;
  dataType: string | null;
  protected: boolean;
  siteSpecific: boolean;
  saasDefaultValue: string | null;
  onPremDefaultValue: string | null;
  linuxSpecificValue: string | null;
  /** IRMN version names: since and deprecated at (null: always, never). */
  since: string | null;
  deprecatedAt: string | null;
}

export interface PlanInput {
  classId: number;
  accountName: string;
  accountUrlFriendlyName: string;
  instancePolicy: 'AllInOne' | 'InstancePerSiteMaster';
  enableSsl: boolean;
  instanceTypeId: number | null;
  /** The image's OS and IRMN version (null when unknown: every version applies). */
  osType: string;
  irmnVersion: string | null;
  sites: TPlannedSite[];
  configs: ConfigDefinition[];
}

/** Compares dotted version names numerically: '8.1' < '8.10'. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Number.isNaN(d) ? a.localeCompare(b) : d;
  }
  return 0;
}

/** The configs of the catalogue that exist at `irmnVersion`. */
export function configsAt(configs: ConfigDefinition[], irmnVersion: string | null): ConfigDefinition[] {
  if (!irmnVersion) return configs.filter((c) => !c.deprecatedAt);
  return configs.filter(
    (c) => (!c.since || compareVersions(c.since, irmnVersion) <= 0) && (!c.deprecatedAt || compareVersions(irmnVersion, c.deprecatedAt) < 0),
  );
}

/** A config's string value typed by its dataType (number, boolean, json; null is text). */
export function typedValue(dataType: string | null, value: string): unknown {
  if (dataType === 'number') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  }
  if (dataType === 'boolean') return value === 'true';
  if (dataType === 'json') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

function substitute(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** The default component config of one machine (see the module docstring). */
export function defaultComponentConfig(
  input: Omit<PlanInput, 'sites' | 'instancePolicy' | 'instanceTypeId'>,
  machine: { isLauncher: boolean; isSiteMaster: boolean; site: TPlannedSite | null },
): Record<string, unknown> {
  const vars: Record<string, string> = {
    protocol: input.enableSsl ? 'https' : 'http',
    account_name: input.accountName,
    account_url_name: input.accountUrlFriendlyName,
  };
  if (machine.site) {
    Object.assign(vars, { site_name: machine.site.name, site_url_name: machine.site.urlFriendlyName, site_port: String(machine.site.port) });
  }
  const out: Record<string, unknown> = {};
  for (const c of configsAt(input.configs, input.irmnVersion)) {
    if (c.rootKey === 'launcher' && !machine.isLauncher) continue;
    if ((c.rootKey === 'siteMaster' || c.siteSpecific) && !machine.isSiteMaster) continue;
    const linux = input.osType === 'Linux' ? c.linuxSpecificValue : null;
    const value = linux ?? (input.classId === CLASS_ON_PREMISE ? c.onPremDefaultValue : c.saasDefaultValue);
    if (value === null) continue;
    out[`${c.rootKey}.${c.subKey}`] = typedValue(c.dataType, substitute(value, vars));
  }
  return out;
}

/** The planned machines of a non-add-on account (see the module docstring). */
export function planMachines(input: PlanInput): TPlannedMachine[] {
  const url = input.accountUrlFriendlyName;
  const taken = new Set<string>();
  const unique = (name: string) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`;
    taken.add(candidate);
    return candidate;
  };
  const machine = (name: string, isLauncher: boolean, site: TPlannedSite | null): TPlannedMachine => ({
    name: unique(name),
    isLauncher,
    isSiteMaster: site !== null,
    siteUrlFriendlyName: site?.urlFriendlyName ?? null,
    instanceTypeId: input.instanceTypeId,
    componentConfig: defaultComponentConfig(input, { isLauncher, isSiteMaster: site !== null, site }),
  });
  if (input.instancePolicy === 'AllInOne') {
    const [site] = input.sites;
    return site ? [machine(`${url}-launcher`, true, site)] : [];
  }
  return [machine(`${url}-launcher`, true, null), ...input.sites.map((site) => machine(`${url}-${site.urlFriendlyName}`, false, site))];
}

/** The config keys of the catalogue at the account's version, for the preview editor. */
export function configKeys(configs: ConfigDefinition[], irmnVersion: string | null): TComponentConfigKey[] {
  return configsAt(configs, irmnVersion).map((c) => ({
    key: `${c.rootKey}.${c.subKey}`,
    dataType: (c.dataType as TComponentConfigKey['dataType']) ?? null,
    protected: c.protected,
    siteSpecific: c.siteSpecific,
  }));
}

/**
 * Field errors of the adjusted configs of create-from-draft: each machine name
 * must be planned, each key known at the account's version, each value of the
 * config's type, and a protected config unchanged.
 */
export function checkAdjustedConfigs(
  adjusted: Record<string, Record<string, unknown>>,
  planned: TPlannedMachine[],
  keys: TComponentConfigKey[],
): { propertyName: string; errorMessage: string; attemptedValue: unknown }[] {
  const errors: { propertyName: string; errorMessage: string; attemptedValue: unknown }[] = [];
  const byKey = new Map(keys.map((k) => [k.key, k]));
  for (const [machineName, config] of Object.entries(adjusted)) {
    const path = `machineComponentConfigs.${machineName}`;
    const machine = planned.find((m) => m.name === machineName);
    if (!machine) {
      errors.push({ propertyName: path, errorMessage: `'${machineName}' is not a planned machine of the draft`, attemptedValue: machineName });
      continue;
    }
    for (const [key, value] of Object.entries(config)) {
      const def = byKey.get(key);
      const at = `${path}.${key}`;
      if (!def) errors.push({ propertyName: at, errorMessage: `Unknown component config '${key}'`, attemptedValue: value });
      else if (def.protected && JSON.stringify(value) !== JSON.stringify(machine.componentConfig[key])) {
        errors.push({ propertyName: at, errorMessage: `Component config '${key}' is protected`, attemptedValue: value });
      } else if (!fitsType(def.dataType, value)) {
        errors.push({ propertyName: at, errorMessage: `Component config '${key}' must be a ${def.dataType ?? 'string'}`, attemptedValue: value });
      }
    }
  }
  return errors;
}

function fitsType(dataType: TComponentConfigKey['dataType'], value: unknown): boolean {
  if (dataType === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (dataType === 'boolean') return typeof value === 'boolean' || value === null;
  if (dataType === 'json') return value !== undefined;
  return typeof value === 'string';
}
