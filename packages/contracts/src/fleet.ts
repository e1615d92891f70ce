/**
 * Fleet counters of the top bar (spec 3 §2.9, §3 Fleet stats), MMA classes and
 * SaaS images as the accounts list filters need them.
 */
import { z } from 'zod';
import { ZChangeWindows } from './change-windows.js';
import { ZClassRef } from './classes.js';

/** Top bar counters refresh interval, milliseconds (spec 3 §9). */
export const STATS_REFRESH_MS = 30_000;

/**
 * `GET /machines/stats`: live machines of live accounts of every class, for
 * every user (spec 3 §2.9; spec 1 §2 counts the fleet), per top bar class
 * and needing an admin, in turbo, unmanaged. `restricted` says how many of
 * them are of a class the user cannot open (Customer Production without group
 * CustomerProductionAccess: the machine's or its account's class): counted
 * here, not listed by the Machines viewer for that user. Costs are cloud
 * credits per hour of the machines the user can open.
 */
export const ZMachineStats = z.object({
  needsAdmin: z.number().int(),
  turbo: z.number().int(),
  unmanaged: z.number().int(),
  /** Per top bar class: its machines, and how many of them the user cannot open (in a Customer Production account, or of that class). */
  classStats: z.array(z.object({ class: ZClassRef, total: z.number().int(), restricted: z.number().int() })),
  restricted: z.object({
    /** Classes whose machines the user cannot open; empty for a user of the group. */
    classIds: z.array(z.number().int()),
    needsAdmin: z.number().int(),
    turbo: z.number().int(),
    unmanaged: z.number().int(),
  }),
  runningCost: z.number(),
  totalCost: z.number(),
});
export type TMachineStats = z.infer<typeof ZMachineStats>;

/**
 * `GET /mma/stats`: the number of MMA instances on standby and the classes of
 * those instances (by class id), for the top bar's banner (spec 3 §2.9).
 */
export const ZMmaStats = z.object({ standby: z.number().int(), standbyClasses: z.array(ZClassRef) });
export type TMmaStats = z.infer<typeof ZMmaStats>;

/**
 * How a class's MMA instance runs its operations (issue 27 point 1; DESIGN §17):
 * `simulated`, in the server's worker (the default); `remote`, by MMA processes
 * that registered for the class and claim its operations over the MMA protocol.
 */
export const MMA_INSTANCE_MODES = ['simulated', 'remote'] as const;
export const ZMmaInstanceMode = z.enum(MMA_INSTANCE_MODES, { error: 'Must be simulated or remote' });
export type TMmaInstanceMode = z.infer<typeof ZMmaInstanceMode>;

/** The state of a class's MMA instance (spec 3 §3 MMA class `mmaInstance`; `GET /mma/instances` adds its ids). */
export const ZMmaInstanceState = z.object({
  commitHash: z.string(),
  commitTimestamp: z.string(),
  deployerVer: z.string(),
  deployerBranch: z.string(),
  deployerVerUpdatedAt: z.string().nullable(),
  standby: z.boolean(),
  priorityGroup: z.number().int(),
  caaHost: z.string().nullable(),
  mode: ZMmaInstanceMode,
});

export type TMmaInstanceState = z.infer<typeof ZMmaInstanceState>;

/**
 * An MMA class (spec 3 §3 MMA class) with its instance, if any, and its change
 * windows (issue 25 point 5: when a rollout's wave may start on its machines;
 * empty: any time).
 */
export const ZMmaClass = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  isProduction: z.boolean(),
  mmaInstance: ZMmaInstanceState.nullable(),
  changeWindows: ZChangeWindows,
});
export type TMmaClass = z.infer<typeof ZMmaClass>;
export const ZMmaClassesResponse = z.array(ZMmaClass);

/**
 * What a jump-start image brings to an account (spec 1 §2 Instance Settings card:
 * picking one "sets SSL, monitoring and all component versions and library files
 * from the image, and sets the modes to Select"; spec 3 §3 jumpStartConfig with
 * the deployer version). Versions are as the version picker writes them
 * (`{branch}|{shortHash}` or a build URL), keyed by component (`launcher`,
 * `siteMaster`, ...); `libraryFiles` are main library file ids.
 */
export const ZJumpStartConfig = z.object({
  deployer: z.string().nullable(),
  enableSsl: z.boolean(),
  showInGrafana: z.boolean(),
  versions: z.record(z.string(), z.string()),
  libraryFiles: z.array(z.number().int()),
});
export type TJumpStartConfig = z.infer<typeof ZJumpStartConfig>;

/** A SaaS image (spec 3 §3); `jumpStartConfig` is null unless `jumpStart`. */
export const ZSaasImage = z.object({
  id: z.number().int(),
  name: z.string(),
  region: z.string(),
  description: z.string(),
  irmnVersion: z.string().nullable(),
  official: z.boolean(),
  active: z.boolean(),
  jumpStart: z.boolean(),
  jumpStartConfig: ZJumpStartConfig.nullable(),
  osType: z.enum(['Windows', 'Linux']),
  cloudImage: z.string(),
  accountCount: z.number().int(),
});
export type TSaasImage = z.infer<typeof ZSaasImage>;
export const ZSaasImagesResponse = z.array(ZSaasImage);

/** `GET /health` 200: the process runs and PostgreSQL answers. */
export const ZHealth = z.object({ status: z.literal('ok'), database: z.literal('ok'), version: z.string().max(40) });
/** `GET /health` 503: the process runs, PostgreSQL does not answer (restarting, stopped, unreachable). */
export const ZHealthUnavailable = z.object({ status: z.literal('unavailable'), database: z.literal('down'), version: z.string().max(40) });
export type THealth = z.infer<typeof ZHealth>;
export type THealthUnavailable = z.infer<typeof ZHealthUnavailable>;

/**
 * The fleet-wide freeze (issue 25 point 5): while it is on, no new wave of a
 * rollout and no new UpdateSoftware starts anywhere. Who froze it, why and when
 * (null while it is off; `releasedBy` and `releasedAt` say who released the last one).
 */
export const ZFleetFreeze = z.object({
  frozen: z.boolean(),
  reason: z.string().nullable(),
  frozenBy: z.string().nullable(),
  frozenAt: z.string().nullable(),
  releasedBy: z.string().nullable(),
  releasedAt: z.string().nullable(),
});
export type TFleetFreeze = z.infer<typeof ZFleetFreeze>;

/** `PUT /fleet/freeze`: freeze (with the reason, 1–500 characters) or release the fleet. */
export const ZFleetFreezeRequest = z.discriminatedUnion('frozen', [
  z.object({ frozen: z.literal(true), reason: z.string().trim().min(1, 'Say why').max(500) }),
  z.object({ frozen: z.literal(false) }),
]);
export type TFleetFreezeRequest = z.infer<typeof ZFleetFreezeRequest>;

