/**
 * The Updater's software versions block as a software update payload, and back
 * (spec 3 §2.8, §3 Software update payload, §4 Version modes; DESIGN §15).
 * Pure functions, no React.
 *
 * The block's form holds, per software (`CONFIG_COMPONENTS`, the deployer
 * included), `{key}VersionMode` (Skip by default) and `{key}Version`, and the
 * library fields of the Component Versions card (`mainLibraryMode`,
 * `mainLibraryFiles`, `accountLibraryMode`, `accountLibraryFiles`).
 */
import {
  CONFIG_COMPONENTS,
  DEFAULT_APPROVAL_TIMEOUT_MINUTES,
  DEFAULT_MAX_FAILED_PERCENT,
  DEFAULT_MIN_PROBE_SUCCESS_PERCENT,
  DEFAULT_MAX_FAILED_TARGETS,
  DEFAULT_WAVE_TIMEOUT_MINUTES,
  DEFAULT_WAVES,
  SUGGESTED_BAKE_MINUTES,
  type TConfigComponent,
  type TRolloutApproval,
  type TRolloutOnHalt,
  type TRolloutPlanInput,
  type TSoftwareUpdateConfigInput,
  type TTemplate,
  type TUpdaterVersionMode,
  type TWaveSize,
} from '@fleet/contracts';

/** The values of the software versions block's form. */
export type VersionsFormValues = Record<string, unknown> & {
  mainLibraryMode?: string;
  mainLibraryFiles?: number[];
  accountLibraryMode?: string;
  accountLibraryFiles?: number[];
};

const modeKey = (c: TConfigComponent) => `${c}VersionMode`;
const versionKey = (c: TConfigComponent) => `${c}Version`;

/** The block's starting values: every software and library on Skip (spec 3 §4: in the updater modes default to Skip). */
export function initialVersionsValues(): VersionsFormValues {
  const values: VersionsFormValues = { mainLibraryMode: 'Skip', mainLibraryFiles: [], accountLibraryMode: 'Skip', accountLibraryFiles: [] };
  for (const c of CONFIG_COMPONENTS) {
    values[modeKey(c)] = 'Skip';
    values[versionKey(c)] = '';
  }
  return values;
}

/**
 * The payload of `POST /software-update/update-*` without targets: per software
 * its mode and version (version empty unless Latest or Select); library modes
 * and files only in account mode (machine mode leaves them on Skip).
 */
export function toSoftwareUpdateConfig(values: VersionsFormValues, mode: 'machine' | 'account'): TSoftwareUpdateConfigInput {
  const config: Record<string, unknown> = {};
  for (const c of CONFIG_COMPONENTS) {
    const m = (values[modeKey(c)] as TUpdaterVersionMode | undefined) ?? 'Skip';
    config[modeKey(c)] = m;
    config[versionKey(c)] = m === 'Latest' || m === 'Select' ? String(values[versionKey(c)] ?? '') : '';
  }
  if (mode === 'account') {
    const mainMode = values.mainLibraryMode ?? 'Skip';
    const accountMode = values.accountLibraryMode ?? 'Skip';
    config.mainLibraryMode = mainMode;
    config.mainLibraryFiles = mainMode === 'Select' ? (values.mainLibraryFiles ?? []) : [];
    config.accountLibraryMode = accountMode;
    config.accountLibraryFile = accountMode === 'Select' ? (values.accountLibraryFiles?.[0] ?? null) : null;
  }
  return config as TSoftwareUpdateConfigInput;
}

/** The softwares and libraries the payload changes (modes other than Skip), e.g. `['launcher', 'mainLibrary']`. */
export function changedSoftwares(config: TSoftwareUpdateConfigInput): string[] {
  const record = config as Record<string, unknown>;
  const changed: string[] = CONFIG_COMPONENTS.filter((c) => (record[modeKey(c)] ?? 'Skip') !== 'Skip');
  if ((config.mainLibraryMode ?? 'Skip') !== 'Skip') changed.push('mainLibrary');
  if ((config.accountLibraryMode ?? 'Skip') !== 'Skip') changed.push('accountLibrary');
  return changed;
}

/**
 * The versions of an instance-settings template as the block's values: each
 * software's mode and version (a mode the updater does not know reads as
 * Skip); the library fields stay as they are ('Template loaded', spec 3 §2.8).
 */
export function templateToVersionsValues(template: TTemplate): VersionsFormValues {
  const values: VersionsFormValues = {};
  for (const c of CONFIG_COMPONENTS) {
    const m = template[modeKey(c)];
    const known = typeof m === 'string' && ['None', 'Latest', 'LatestBuild', 'Select'].includes(m);
    values[modeKey(c)] = known ? m : 'Skip';
    values[versionKey(c)] = known && typeof template[versionKey(c)] === 'string' ? template[versionKey(c)] : '';
  }
  return values;
}

/**
 * The block as the settings of an instance-settings template (`POST
 * /template/instance-settings`): the softwares not on Skip with their mode and
 * version; the others are left out, so the template takes their defaults.
 */
export function versionsToTemplateSettings(values: VersionsFormValues): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const c of CONFIG_COMPONENTS) {
    const m = values[modeKey(c)];
    if (typeof m !== 'string' || m === 'Skip') continue;
    settings[modeKey(c)] = m;
    settings[versionKey(c)] = String(values[versionKey(c)] ?? '');
  }
  return settings;
}

/**
 * A rollout plan as the Updater edits it: every field set but `approval`
 * (absent: the server's default for the targets) and `maxConcurrent` (absent:
 * a whole wave at once).
 */
export type RolloutPlanValue = Required<Omit<TRolloutPlanInput, 'approval' | 'maxConcurrent'>> & Pick<TRolloutPlanInput, 'approval' | 'maxConcurrent'>;

/**
 * The default rollout plan (DESIGN §15, issue 25): waves of 1 target, 10 %, then
 * the rest; halt above 1 target or 10 % failed; 30 min per wave; the approval
 * the server chooses for the targets (per wave on a production class), asked
 * within 7 days; each wave bakes 5 minutes (the console's offer; the API's
 * default is no bake) with probes succeeding at least 95 % of the time.
 */
export function defaultRolloutPlan(): RolloutPlanValue {
  return {
    waves: DEFAULT_WAVES.map((w) => ({ ...w })),
    maxFailedTargets: DEFAULT_MAX_FAILED_TARGETS,
    maxFailedPercent: DEFAULT_MAX_FAILED_PERCENT,
    waveTimeoutMinutes: DEFAULT_WAVE_TIMEOUT_MINUTES,
    approvalTimeoutMinutes: DEFAULT_APPROVAL_TIMEOUT_MINUTES,
    bakeMinutes: SUGGESTED_BAKE_MINUTES,
    minProbeSuccessPercent: DEFAULT_MIN_PROBE_SUCCESS_PERCENT,
    onHalt: 'stay',
  };
}

/** The plan's `onHalt` as the plan editor and the rollout page say it. */
export const ON_HALT_LABELS: Record<TRolloutOnHalt, string> = {
  stay: 'Stay halted',
  rollback: 'Roll back by itself',
};

/** How the console names a plan's approval mode. */
export const APPROVAL_LABELS: Record<TRolloutApproval, string> = {
  none: 'None',
  perWave: 'Every wave',
  firstWaveOnly: 'First wave only',
};

/**
 * The sizes of the waves `waves` make of `total` targets: a count as it is, a
 * percentage of all targets rounded up (at least 1); sizes stop at the targets
 * left, and the targets left after the last wave form one more wave. E.g. 50
 * targets with the default waves: [1, 5, 44].
 */
export function waveSizes(waves: readonly TWaveSize[], total: number): number[] {
  const sizes: number[] = [];
  let left = total;
  for (const wave of waves) {
    if (left <= 0) break;
    const wanted = wave.kind === 'count' ? wave.value : Math.max(1, Math.ceil((total * wave.value) / 100));
    const size = Math.min(left, wanted);
    sizes.push(size);
    left -= size;
  }
  if (left > 0) sizes.push(left);
  return sizes;
}

/** A wave size as text: `1 target`, `5 targets` or `10 %`. */
export function waveSizeText(wave: TWaveSize): string {
  if (wave.kind === 'percent') return `${wave.value} %`;
  return wave.value === 1 ? '1 target' : `${wave.value} targets`;
}

/** 1 → '1st', 2 → '2nd', 3 → '3rd', 11 → '11th', 22 → '22nd'. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/**
 * When a wave halts the rollout, as the console says it (issue 25 point 4: the
 * threshold is checked as each target finishes): 'Halts at the 2nd failure of a
 * wave, or when more than 10 % of it fails'.
 */
export function thresholdText(plan: { maxFailedTargets: number; maxFailedPercent: number }): string {
  return `Halts at the ${ordinal(plan.maxFailedTargets + 1)} failure of a wave, or when more than ${plan.maxFailedPercent} % of it fails`;
}
