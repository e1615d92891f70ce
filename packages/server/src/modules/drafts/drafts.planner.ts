/**
 * What a draft account plans (DESIGN §6; spec 1 §2 Create account preview): its
 * sites and machines per instance policy, and each machine's default component
 * config from the catalogue (spec 2 §5, spec 3 §2.5).
 *
 * - AllInOne: one machine, launcher and site master of the one site.
 *   InstancePerSiteMaster: one launcher machine (no site) plus one site master
 *   machine per site. Add-on accounts: no sites, no machines.
 * - Machines are named `{account url name}-launcher` and
 *   `{account url name}-{site url name}`, as the seeded fleet names them.
 * - Component config defaults follow the rules of
 *   `machine-configs/config-rules.ts` (which definitions apply, which value
 *   wins, substitution, typing), the same that `GET
 *   /machines/{id}/default-component-config` answers once the machine exists.
 */
import { hasConfigType, type TComponentConfigKey, type TPlannedMachine, type TPlannedSite } from '@fleet/contracts';
import { availableAt, defaultsFor, type ConfigDefinition, type MachineFacts } from '../machine-configs/config-rules.js';

export interface PlanInput {
  classId: number;
  accountName: string;
  accountUrlFriendlyName: string;
  instancePolicy: 'AllInOne' | 'InstancePerSiteMaster';
  enableSsl: boolean;
  instanceTypeId: number | null;
  /** The image's OS and IRMN version (null when the image is unknown: every definition not deprecated applies). */
  osType: string | null;
  irmnVersion: string | null;
  sites: TPlannedSite[];
  /** The component config catalogue (`selectComponentDefinitions`). */
  configs: ConfigDefinition[];
}

/** What a planned machine is, for its defaults. */
export interface PlannedRole {
  isLauncher: boolean;
  isSiteMaster: boolean;
  site: TPlannedSite | null;
}

/** The facts the config rules need about a planned machine, as `selectSubstitutionFacts` will read them once it exists. */
export function plannedFacts(input: Omit<PlanInput, 'sites' | 'instancePolicy' | 'instanceTypeId' | 'configs'>, machine: PlannedRole): MachineFacts {
  return {
    isLauncher: machine.isLauncher,
    isSiteMaster: machine.isSiteMaster,
    accountClassId: input.classId,
    accountName: input.accountName,
    accountUrlName: input.accountUrlFriendlyName,
    machineConfig: { enableSsl: input.enableSsl },
    siteName: machine.site?.name ?? null,
    siteUrlName: machine.site?.urlFriendlyName ?? null,
    sitePort: machine.site?.port ?? null,
    osType: input.osType,
    irmnVersion: input.irmnVersion,
  };
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
    componentConfig: defaultsFor(input.configs, plannedFacts(input, { isLauncher, isSiteMaster: site !== null, site })),
  });
  if (input.instancePolicy === 'AllInOne') {
    const [site] = input.sites;
    return site ? [machine(`${url}-launcher`, true, site)] : [];
  }
  return [machine(`${url}-launcher`, true, null), ...input.sites.map((site) => machine(`${url}-${site.urlFriendlyName}`, false, site))];
}

/** The config keys of the catalogue at the account's version, for the preview editor. */
export function configKeys(configs: ConfigDefinition[], irmnVersion: string | null): TComponentConfigKey[] {
  return configs.filter((c) => availableAt(c, irmnVersion)).map((c) => ({
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
      } else if (!hasConfigType(value, def.dataType)) {
        errors.push({ propertyName: at, errorMessage: `Component config '${key}' must be a ${def.dataType ?? 'string'}`, attemptedValue: value });
      }
    }
  }
  return errors;
}
