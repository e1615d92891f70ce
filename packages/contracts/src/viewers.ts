/**
 * The fleet-wide viewers (spec 2 §2.1, §2.7–2.9, §3 Cloud instance, Version
 * state, Machine lookup, §7, §9): the Machines, States and Cloud Instances
 * viewers, paged and filtered on the server.
 *
 * The spec's console fetched 300 rows from index 0 and paged locally; ours must
 * hold at 100,000 machines, so each page is read by the server and a total over
 * the whole fleet is counted only {@link VIEWER_COUNT_AHEAD} rows past the page
 * (`totalCapped` true: "at least"), as `GET /operations` does.
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, refineTimeRange, TIME_RANGE_FIELDS, VIEWER_PAGE_SIZE, ZId, zPaged, ZQueryFlag, ZSortOrder } from './common.js';
import { VERSION_STATE_COMPONENTS, ZVersionState } from './backups.js';
import { ZInstanceState, ZMachine } from './machines.js';

/**
 * How far past the requested page the fleet-wide viewer lists count matching
 * rows: a list with more than `startIndex + limit + VIEWER_COUNT_AHEAD` rows
 * answers that many with `totalCapped` true. Paging on moves the cap on.
 *
 * 300, the rows the spec's console fetched from index 0 and paged locally
 * (spec 2 §9 "Viewer fetch: limit 300"): the first page knows at least as
 * much as the spec's did. Counting checks each row's machine and account
 * (about 2 µs a row), so the count ahead is most of a page's cost: 1,000 rows
 * past the page made the States viewer's first page 2.5 ms of PostgreSQL
 * (count 2 ms), 300 rows 1.2 ms.
 */
export const VIEWER_COUNT_AHEAD = 300;

/** Largest page of the viewer lists (the spec's console asked for 300). */
export const MAX_VIEWER_PAGE = 300;

/** Page sizes: the viewers' one, 20 (issue 24 point 7; spec 2 §9 gave 10 or 15; the Machines viewer has none there). */
export const MACHINES_VIEWER_PAGE_SIZE = 20;
export const STATES_VIEWER_PAGE_SIZE = VIEWER_PAGE_SIZE;
export const CLOUD_INSTANCES_VIEWER_PAGE_SIZE = VIEWER_PAGE_SIZE;

/** `{items, totalItems, totalCapped}`: a page whose total is exact only when `totalCapped` is false. */
export const zCappedPage = <T extends z.ZodTypeAny>(item: T) => zPaged(item).extend({ totalCapped: z.boolean() });

/** Paging of a viewer list: `startIndex` and `limit` (1 to {@link MAX_VIEWER_PAGE}). */
const VIEWER_PAGE_FIELDS = {
  startIndex: PAGE_QUERY_FIELDS.startIndex,
  limit: PAGE_QUERY_FIELDS.limit.pipe(z.number().max(MAX_VIEWER_PAGE)),
};

// ---------------------------------------------------------------- machines

/**
 * `GET /machines` (the Machines viewer, spec 2 §2.7, and the fleet-wide list):
 * by account, launcher first, then name. Without `accountId` or `machineId` the
 * total is capped ({@link VIEWER_COUNT_AHEAD}).
 */
export const ZMachinesPage = zCappedPage(ZMachine);
export type TMachinesPage = z.infer<typeof ZMachinesPage>;

// ---------------------------------------------------------------- version states

/** The States viewer's radio (spec 2 §2.8, §4): current, historical or desired states. */
export const VERSION_STATE_KINDS = ['Current', 'Historical', 'Desired'] as const;
export const ZVersionStateKind = z.enum(VERSION_STATE_KINDS);
export type TVersionStateKind = z.infer<typeof ZVersionStateKind>;

/**
 * A row of the States viewer (spec 2 §2.8): a version state with its machine's
 * class and the backups of its time: the name of the machine's newest launcher
 * and site master backup made before the state was replaced (for a current or
 * desired state: the newest), or null when there is none.
 */
export const ZViewerVersionState = ZVersionState.extend({
  machineClassName: z.string(),
  launcherBackup: z.string().nullable(),
  siteMasterBackup: z.string().nullable(),
});
export type TViewerVersionState = z.infer<typeof ZViewerVersionState>;

/** The orders of `GET /version-states` (`sort`): `timestamp`, the state's time (then the id), the default. */
export const VERSION_STATE_SORTS = ['timestamp'] as const;

/** Longest branch name a filter takes. */
export const MAX_BRANCH_FILTER_LENGTH = 200;

/**
 * `GET /version-states` (spec 2 §2.8; issue 24 point 7): version states of
 * every visible machine, or of one (`machineId`). Current and Historical: the
 * stored states by timestamp, then id, newest first (`order=asc`: oldest
 * first; `sort=timestamp` names that order); `from` and `to` bound the
 * timestamp (inclusive, ISO 8601 with a zone). Desired: one computed state per
 * machine, by machine id, without time range or sort (400 naming them).
 * Filters of every kind: `classId` (the machine's class), `component` (states
 * in which it is installed) and `branch` (with `component`: its version is of
 * that branch).
 */
export const ZVersionStatesViewerQuery = z
  .object({
    ...VIEWER_PAGE_FIELDS,
    state: ZVersionStateKind.default('Current'),
    machineId: ZId.optional(),
    classId: ZId.optional(),
    component: z.enum(VERSION_STATE_COMPONENTS, { error: 'Must be a component name, e.g. siteMaster' }).optional(),
    branch: z.string().trim().min(1).max(MAX_BRANCH_FILTER_LENGTH).optional(),
    ...TIME_RANGE_FIELDS,
    sort: z.enum(VERSION_STATE_SORTS).optional(),
    order: ZSortOrder.default('desc'),
  })
  .superRefine((q, ctx) => {
    refineTimeRange(q, ctx);
    if (q.branch !== undefined && q.component === undefined) {
      ctx.addIssue({ code: 'custom', path: ['branch'], message: 'A branch filter needs a component', input: q.branch });
    }
    if (q.state === 'Desired') {
      for (const field of ['from', 'to', 'sort'] as const) {
        if (q[field] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'Desired states have no stored time: time range and sort apply to Current and Historical', input: q[field] });
        }
      }
    }
  });
export type TVersionStatesViewerQuery = z.input<typeof ZVersionStatesViewerQuery>;
export const ZVersionStatesViewerPage = zCappedPage(ZViewerVersionState);
export type TVersionStatesViewerPage = z.infer<typeof ZVersionStatesViewerPage>;

// ---------------------------------------------------------------- cloud instances

/**
 * A cloud instance as the viewer lists it (spec 2 §3 Cloud instance, §2.9).
 * `timestamp` is when the instance was launched (ISO 8601 UTC); `status` is the
 * instance's state now (a transition whose time has come counts as done).
 */
export const ZCloudInstance = z.object({
  id: z.number().int(),
  machineId: z.number().int(),
  machineName: z.string(),
  machineClassName: z.string(),
  hostName: z.string(),
  ipAddress: z.string(),
  privateIpAddress: z.string(),
  cloudId: z.string(),
  region: z.string(),
  /** Disk size, GB. */
  storageSize: z.number().int(),
  timestamp: z.string(),
  updatedAt: z.string(),
  status: ZInstanceState,
  active: z.boolean(),
  dnsReady: z.boolean(),
});
export type TCloudInstance = z.infer<typeof ZCloudInstance>;

/** The orders of `GET /cloud-instance` (`sort`): `timestamp`, the launch time (then the id). */
export const CLOUD_INSTANCE_SORTS = ['timestamp'] as const;

/**
 * `GET /cloud-instance` (spec 2 §7; issue 24 point 7): instances of every
 * visible machine, or of one (`machineId`), newest (highest id) first; with
 * `sort=timestamp` by launch time, `order` desc or asc (without `sort`,
 * `order=asc` lists the lowest id first). Filters: `classId` (the machine's
 * class), `status` (the state now), `active` (true or false).
 */
export const ZCloudInstancesQuery = z.object({
  ...VIEWER_PAGE_FIELDS,
  machineId: ZId.optional(),
  classId: ZId.optional(),
  status: ZInstanceState.optional(),
  active: ZQueryFlag.optional(),
  sort: z.enum(CLOUD_INSTANCE_SORTS).optional(),
  order: ZSortOrder.default('desc'),
});
export type TCloudInstancesQuery = z.input<typeof ZCloudInstancesQuery>;
/** `GET /machines/{id}/cloud-instances` (spec 2 §7): the machine's instances, newest first. */
export const ZMachineCloudInstancesQuery = z.object(VIEWER_PAGE_FIELDS);
export const ZCloudInstancesPage = zCappedPage(ZCloudInstance);
export type TCloudInstancesPage = z.infer<typeof ZCloudInstancesPage>;

/**
 * Whether a host name lies in the public cloud compute domain
 * (`*.compute.amazonaws.com`, `*.compute-1.amazonaws.com` in us-east-1), which
 * the Cloud Instances viewer renders as a link (spec 2 §2.9).
 */
export function isComputeHostName(hostName: string): boolean {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.compute(-1)?\.amazonaws\.com$/i.test(hostName);
}
