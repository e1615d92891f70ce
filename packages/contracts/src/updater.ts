/**
 * The Updater and its batch calls (spec 3 §2.8, §3 Machine version config,
 * Software update payload, Machine and Account for the updater, §4 Version modes,
 * §7 Updater and batch; spec 2 §5, §7; DESIGN §15).
 *
 * - `PUT /machines/batch`, `PUT /accounts/batch`: flags and class of many targets.
 * - `PUT /machines/batch/component-configs`, `/deployer-configs`: whole
 *   configurations of many machines, keyed by machine id.
 * - `POST /software-update/update-machines`, `/update-accounts`: versions (and,
 *   for accounts, library files) of many targets, at once or as a rollout in waves.
 * - `GET /rollouts`, `GET /rollouts/{id}`, `GET /rollouts/{id}/targets`,
 *   `POST /rollouts/{id}/pause|resume|abort`: a rollout's progress and control.
 * - `GET /updater/machines`, `/updater/accounts` (and `/ids` of each): the targets
 *   table and 'select all that match'.
 * - `GET`/`POST /updater/selections`, `DELETE /updater/selections/{id}`: saved
 *   target selections.
 *
 * Every update and batch call takes `dryRun`: the answer lists per target what
 * would change (field, old value, new value; for versions the commit they resolve
 * to now) and changes nothing. Without it the call is atomic: every target or none.
 * Unknown ids, and ids of targets hidden from the caller (Customer Production
 * without group CustomerProductionAccess), answer 404 naming each such id, dry
 * run or not; a target a rule refuses answers 422 naming it and the rule (a dry
 * run answers 200 with the reason in the target's `refused`).
 */
import { z } from 'zod';
import { ZAccountFilter } from './accounts.js';
import { CONFIG_COMPONENTS, type TConfigComponent } from './account-sections.js';
import { ZBodyClassId, ZClassId } from './classes.js';
import { MAX_SEARCH_LENGTH, PAGE_QUERY_FIELDS, ZId, ZRefId, zBoundedMap, zCommaList, zPaged } from './common.js';
import { ZConfigMap, ZMachineClassId } from './machines.js';

/** Most targets one update or flag batch may name; larger selections are sent in several requests. */
export const MAX_UPDATE_TARGETS = 10_000;
/** Most machines one batch configuration call may carry (each configuration holds up to 2,000 keys). */
export const MAX_BATCH_CONFIG_MACHINES = 200;

/** A list of distinct target ids, 1 to {@link MAX_UPDATE_TARGETS}. */
export const zTargetIds = (label: string) =>
  z
    .array(ZRefId)
    .min(1, `Choose at least one ${label}`)
    .max(MAX_UPDATE_TARGETS, `At most ${MAX_UPDATE_TARGETS} ${label}s per request`)
    .refine((ids) => new Set(ids).size === ids.length, `Each ${label} may be named once`);

const dryRun = z.boolean().default(false).describe('Answer what would change, change nothing');

// ---------------------------------------------------------------- results

/** One field of one target that changes (or would): for versions, `resolved` is the commit (`{branch}|{shortHash}`) or build it resolves to now. */
export const ZTargetChange = z.object({
  field: z.string(),
  oldValue: z.unknown(),
  newValue: z.unknown(),
  resolved: z.string().nullable().optional(),
  /** Machine mode of a software update: what the machine runs now (`{branch}|{shortHash}`), null when not installed. */
  running: z.string().nullable().optional(),
});
export type TTargetChange = z.infer<typeof ZTargetChange>;

/** One target of an update or batch: its changes, or why a rule refuses it. */
export const ZTargetResult = z.object({
  id: z.number().int(),
  name: z.string(),
  changes: z.array(ZTargetChange),
  /** Null when the target is accepted; otherwise the rule that refuses it. */
  refused: z.string().nullable(),
});
export type TTargetResult = z.infer<typeof ZTargetResult>;

/**
 * The answer of every update and batch call: per target, what changes (or would,
 * on a dry run); `changed` targets with at least one change; `activityId` the one
 * audit activity of the request (null on a dry run or when nothing changed);
 * `rolloutId` when the update runs as a rollout.
 */
export const ZBatchResult = z.object({
  dryRun: z.boolean(),
  targets: z.array(ZTargetResult),
  changed: z.number().int(),
  refused: z.number().int(),
  activityId: z.number().int().nullable(),
  rolloutId: z.number().int().nullable(),
});
export type TBatchResult = z.infer<typeof ZBatchResult>;

// ---------------------------------------------------------------- flag batches

/** `PUT /machines/batch`: managed, manual maintenance and class of the machines; at least one field. */
export const ZBatchMachinesRequest = z
  .object({
    machineIds: zTargetIds('machine'),
    managed: z.boolean().optional(),
    manualMaintenance: z.boolean().optional(),
    classId: ZMachineClassId.optional(),
    dryRun,
  })
  .refine((b) => b.managed !== undefined || b.manualMaintenance !== undefined || b.classId !== undefined, {
    message: 'Choose managed, manual maintenance or class',
    path: ['managed'],
  });
export type TBatchMachinesRequest = z.input<typeof ZBatchMachinesRequest>;

/**
 * `PUT /accounts/batch`: managed, class and auto test of the accounts; at least
 * one field. Manual maintenance is a machine switch: it does nothing in account
 * mode (spec 3 §2.8), so it is not a field here.
 */
export const ZBatchAccountsRequest = z
  .object({
    accountIds: zTargetIds('account'),
    managed: z.boolean().optional(),
    classId: ZBodyClassId.optional(),
    autoTest: z.boolean().optional(),
    dryRun,
  })
  .refine((b) => b.managed !== undefined || b.classId !== undefined || b.autoTest !== undefined, {
    message: 'Choose managed, class or auto test',
    path: ['managed'],
  });
export type TBatchAccountsRequest = z.input<typeof ZBatchAccountsRequest>;

/** A map keyed by machine id (decimal string of an id). */
const zByMachine = <V extends z.ZodTypeAny>(value: V) =>
  zBoundedMap(z.string().regex(/^[1-9][0-9]{0,9}$/, 'A machine id').refine((k) => Number(k) <= 2_147_483_647, 'A machine id'), value, MAX_BATCH_CONFIG_MACHINES).refine(
    (m) => Object.keys(m).length > 0,
    'Choose at least one machine',
  );

/** `PUT /machines/batch/component-configs`: each machine's whole component configuration, keyed by machine id. */
export const ZBatchComponentConfigsRequest = z.object({ componentConfigs: zByMachine(ZConfigMap), dryRun });
export type TBatchComponentConfigsRequest = z.input<typeof ZBatchComponentConfigsRequest>;
/** `PUT /machines/batch/deployer-configs`: each machine's whole deployer configuration, keyed by machine id. */
export const ZBatchDeployerConfigsRequest = z.object({ deployerConfigs: zByMachine(ZConfigMap), dryRun });
export type TBatchDeployerConfigsRequest = z.input<typeof ZBatchDeployerConfigsRequest>;

// ---------------------------------------------------------------- software update

/** Version modes in the updater (spec 3 §4): Skip (the default) leaves a software as it is. */
export const UPDATER_VERSION_MODES = ['Skip', 'None', 'Latest', 'LatestBuild', 'Select'] as const;
export const ZUpdaterVersionMode = z.enum(UPDATER_VERSION_MODES);
export type TUpdaterVersionMode = z.infer<typeof ZUpdaterVersionMode>;
export const UPDATER_MAIN_LIBRARY_MODES = ['Skip', 'None', 'LatestDev', 'LatestProd', 'Select'] as const;
export const UPDATER_ACCOUNT_LIBRARY_MODES = ['Skip', 'None', 'LatestAccount', 'Select'] as const;

type UpdaterComponentShape = {
  [K in TConfigComponent as `${K}VersionMode`]: z.ZodDefault<typeof ZUpdaterVersionMode>;
} & {
  [K in TConfigComponent as `${K}Version`]: z.ZodDefault<z.ZodString>;
};

const updaterComponentShape = Object.fromEntries(
  CONFIG_COMPONENTS.flatMap((key) => [
    [`${key}VersionMode`, ZUpdaterVersionMode.default('Skip')],
    [`${key}Version`, z.string().trim().max(500).default('')],
  ]),
) as UpdaterComponentShape;

/**
 * The software update payload (spec 3 §3): per software a version mode (default
 * Skip) and version, like an account's machineConfig; the library modes and
 * files (main library files as ids, the account library file as one id).
 * Library modes other than Skip apply to accounts only (machine mode: 400).
 */
export const ZSoftwareUpdateConfig = z.object({
  ...updaterComponentShape,
  mainLibraryMode: z.enum(UPDATER_MAIN_LIBRARY_MODES).default('Skip'),
  mainLibraryFiles: z.array(ZRefId).max(100).default([]),
  accountLibraryMode: z.enum(UPDATER_ACCOUNT_LIBRARY_MODES).default('Skip'),
  accountLibraryFile: ZRefId.nullable().default(null),
});
export type TSoftwareUpdateConfig = z.output<typeof ZSoftwareUpdateConfig>;
export type TSoftwareUpdateConfigInput = z.input<typeof ZSoftwareUpdateConfig>;

/** Wave sizes: a number of targets or a percentage of all targets; the targets left after the last wave form one more wave. */
export const ZWaveSize = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('count'), value: z.number().int().min(1).max(MAX_UPDATE_TARGETS) }),
  z.object({ kind: z.literal('percent'), value: z.number().min(0.1).max(100) }),
]);
export type TWaveSize = z.infer<typeof ZWaveSize>;
/** Default waves (DESIGN §15): 1 target, then 10 %, then the rest. */
export const DEFAULT_WAVES: TWaveSize[] = [
  { kind: 'count', value: 1 },
  { kind: 'percent', value: 10 },
];
/** A wave halts the rollout when more than this many of its targets fail… */
export const DEFAULT_MAX_FAILED_TARGETS = 1;
/** …or more than this percentage of its targets fail, whichever comes first. */
export const DEFAULT_MAX_FAILED_PERCENT = 10;
/** A target whose deploy has not finished this long after its wave started counts as failed ('Timed out'). */
export const DEFAULT_WAVE_TIMEOUT_MINUTES = 30;

/**
 * Who must approve a rollout's waves (issue 25 point 1): `none` (no approval of
 * the rollout's own; an operation a rule holds, such as ANOMALY mode, still
 * waits for its Proceed), `perWave` (each wave's deploys wait for Approve wave)
 * or `firstWaveOnly` (the first wave's approval covers the later waves).
 * Default: `perWave` when a target is of a production class, else `none`;
 * `none` is refused for production targets.
 */
export const ROLLOUT_APPROVALS = ['none', 'perWave', 'firstWaveOnly'] as const;
export const ZRolloutApproval = z.enum(ROLLOUT_APPROVALS);
export type TRolloutApproval = z.infer<typeof ZRolloutApproval>;
/** A wave not approved this long after it started is rejected ('Approval timed out'): 7 days, as AWS SSM's aws:approve. */
export const DEFAULT_APPROVAL_TIMEOUT_MINUTES = 7 * 24 * 60;
/** The longest bake a plan may ask for: a day. */
export const MAX_BAKE_MINUTES = 1440;
/** The bake the console offers, minutes. */
export const SUGGESTED_BAKE_MINUTES = 5;
/** A baking machine's probes must succeed at least this % of the time. */
export const DEFAULT_MIN_PROBE_SUCCESS_PERCENT = 95;
/** What a rollout does when it halts: stays halted, or rolls back by itself. */
export const ROLLOUT_ON_HALT = ['stay', 'rollback'] as const;
export type TRolloutOnHalt = (typeof ROLLOUT_ON_HALT)[number];
/** The longest approval timeout a plan may ask for: 30 days. */
export const MAX_APPROVAL_TIMEOUT_MINUTES = 30 * 24 * 60;

/**
 * How an update rolls out: waves, the failure threshold per wave, the wave
 * timeout, and the approvals (`approval` absent: the default for the targets,
 * decided when the rollout starts and stored with it).
 */
export const ZRolloutPlan = z.object({
  waves: z.array(ZWaveSize).max(20).default(DEFAULT_WAVES),
  maxFailedTargets: z.number().int().min(0).max(MAX_UPDATE_TARGETS).default(DEFAULT_MAX_FAILED_TARGETS),
  maxFailedPercent: z.number().min(0).max(100).default(DEFAULT_MAX_FAILED_PERCENT),
  waveTimeoutMinutes: z.number().int().min(1).max(1440).default(DEFAULT_WAVE_TIMEOUT_MINUTES),
  approval: ZRolloutApproval.optional(),
  approvalTimeoutMinutes: z.number().int().min(1).max(MAX_APPROVAL_TIMEOUT_MINUTES).default(DEFAULT_APPROVAL_TIMEOUT_MINUTES),
  /**
   * At most this many targets of a wave deploy at once (a count, or a percentage
   * of the wave rounded up, at least 1); absent: the whole wave at once (issue 25
   * point 4).
   */
  maxConcurrent: ZWaveSize.optional(),
  /**
   * After every target of a wave has deployed, the wave bakes this many minutes
   * (0: no bake) while its machines' probes and issues are watched; the next
   * wave starts only after a bake that passed (issue 25 point 2).
   */
  bakeMinutes: z.number().int().min(0).max(MAX_BAKE_MINUTES).default(0),
  /** A machine whose launcher or site master probes succeeded less than this % of the time during the bake is unhealthy. */
  minProbeSuccessPercent: z.number().min(0).max(100).default(DEFAULT_MIN_PROBE_SUCCESS_PERCENT),
  /**
   * What a halt does (issue 25 point 3): `stay` halted (resume, abort or roll
   * back by hand), or `rollback`: start the rollback at once (by user Rollout).
   */
  onHalt: z.enum(ROLLOUT_ON_HALT).default('stay'),
});
export type TRolloutPlan = z.output<typeof ZRolloutPlan>;
export type TRolloutPlanInput = z.input<typeof ZRolloutPlan>;

/**
 * `POST /software-update/update-machines`: per-machine desired versions (an
 * override of the account's, DESIGN §12). `rollout` null: every machine at once.
 */
export const ZUpdateMachinesRequest = ZSoftwareUpdateConfig.extend({
  machines: zTargetIds('machine'),
  dryRun,
  rollout: ZRolloutPlan.nullable().default(null),
});
export type TUpdateMachinesRequest = z.input<typeof ZUpdateMachinesRequest>;

/** `POST /software-update/update-accounts`: the accounts' instance settings versions and library files. */
export const ZUpdateAccountsRequest = ZSoftwareUpdateConfig.extend({
  accounts: zTargetIds('account'),
  dryRun,
  rollout: ZRolloutPlan.nullable().default(null),
});
export type TUpdateAccountsRequest = z.input<typeof ZUpdateAccountsRequest>;

// ---------------------------------------------------------------- targets

/** `GET /updater/machines` and `/updater/machines/ids`: machines by class, name (substring) or account. */
export const ZUpdaterMachinesFilter = z.object({
  classIds: zCommaList(ZClassId).optional(),
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  accountIds: zCommaList(ZId).refine((ids) => ids.length <= 1000, 'At most 1000 accounts').optional(),
});
export const ZUpdaterMachinesQuery = ZUpdaterMachinesFilter.extend(PAGE_QUERY_FIELDS);
/** A machine as the updater lists it (spec 3 §3 Machine (updater)), with its account and whether it runs its desired versions. */
export const ZUpdaterMachine = z.object({
  id: z.number().int(),
  name: z.string(),
  accountId: z.number().int(),
  accountName: z.string(),
  classId: z.number().int(),
  class: z.string(),
  managed: z.boolean(),
  manualMaintenance: z.boolean(),
  obsolete: z.boolean(),
});
export type TUpdaterMachine = z.infer<typeof ZUpdaterMachine>;
export const ZUpdaterMachinesResponse = zPaged(ZUpdaterMachine);

/** `GET /updater/accounts` and `/updater/accounts/ids`: the accounts list's filters (`GET /accounts`). */
export const ZUpdaterAccountsQuery = ZAccountFilter.extend(PAGE_QUERY_FIELDS);
/** An account as the updater lists it (spec 3 §3 Account (updater)). */
export const ZUpdaterAccount = z.object({
  id: z.number().int(),
  name: z.string(),
  classId: z.number().int(),
  class: z.string(),
  managed: z.boolean(),
  autoTest: z.boolean(),
  machines: z.number().int(),
});
export type TUpdaterAccount = z.infer<typeof ZUpdaterAccount>;
export const ZUpdaterAccountsResponse = zPaged(ZUpdaterAccount);

/** 'Select all that match': the ids of every match, at most {@link MAX_UPDATE_TARGETS}, with the number of matches. */
export const ZTargetIdsResponse = z.object({ ids: z.array(z.number().int()), totalItems: z.number().int() });
export type TTargetIdsResponse = z.infer<typeof ZTargetIdsResponse>;

// ---------------------------------------------------------------- saved selections

export const SELECTION_KINDS = ['machines', 'accounts'] as const;
export const ZSelectionKind = z.enum(SELECTION_KINDS);
/**
 * A saved selection of updater targets: either an accounts list query (the
 * query string of `/accounts`, e.g. `search=north&classIds=1,2`: the accounts it
 * matches when opened) or a list of ids. Visible to every user with write;
 * deleted by its owner or an admin.
 */
export const ZSaveSelectionRequest = z
  .object({
    name: z.string().trim().min(1, 'Selection name is required').max(200),
    kind: ZSelectionKind,
    query: z.string().max(2000).nullable().default(null),
    ids: z.array(ZRefId).max(MAX_UPDATE_TARGETS).default([]),
  })
  // Both fields named: either one may be the one to fix.
  .superRefine((s, ctx) => {
    if ((s.query === null) === (s.ids.length === 0)) {
      for (const path of ['query', 'ids']) ctx.addIssue({ code: 'custom', message: 'Save a query or a list of ids', path: [path] });
    }
  })
  .refine((s) => s.query === null || s.kind === 'accounts', { message: 'A query selects accounts', path: ['query'] });
export type TSaveSelectionRequest = z.input<typeof ZSaveSelectionRequest>;
export const ZSavedSelection = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: ZSelectionKind,
  query: z.string().nullable(),
  ids: z.array(z.number().int()),
  owner: z.string(),
  createdAt: z.string(),
});
export type TSavedSelection = z.infer<typeof ZSavedSelection>;
export const ZSavedSelectionsResponse = z.array(ZSavedSelection);
