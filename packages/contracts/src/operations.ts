/**
 * Operations of the machine management agent (MMA): operation types, operations,
 * the calls that queue them, approvals, logs, site server status and the push
 * events (spec 2 §2.2 status column, §2.3 dialogs, §2.6 Operations viewer, §3
 * Operation, §4, §5, §7 Machines and Operations, §8, §9; DESIGN §12).
 */
import { z } from 'zod';
import { ZId, ZPageQuery, PAGE_QUERY_FIELDS, zPaged, zCommaList, ZQueryFlag, ZSortOrder, VIEWER_PAGE_SIZE, TIME_RANGE_FIELDS, refineTimeRange } from './common.js';
import { ZImageName } from './images.js';

// ---------------------------------------------------------------- types and statuses

/**
 * The seeded operation type names (DESIGN §12). Each class has its own catalogue
 * row per name (`canBeManual`, timeout); these are the names the engine knows.
 */
export const OPERATION_TYPE_NAMES = [
  'UpdateSoftware',
  'Backup',
  'RestoreBackup',
  'Populate',
  'PublishSampleData',
  'ReinstallSampleData',
  'CreateJumpStartAmi',
  'TestLatestCode',
  'SmokeTest',
  'ApplyConfig',
] as const;
export const ZOperationTypeName = z.enum(OPERATION_TYPE_NAMES);
export type TOperationTypeName = z.infer<typeof ZOperationTypeName>;

/** Operation statuses (spec 2 §4, §9); null while queued or waiting for approval. */
export const OPERATION_STATUSES = ['RUNNING', 'SUCCESS', 'FAILURE'] as const;
export const ZOperationStatus = z.enum(OPERATION_STATUSES);
export type TOperationStatus = z.infer<typeof ZOperationStatus>;

/** An operator's decision on a pending operation (spec 2 §4, §7 PATCH …/operations/{operationId}). */
export const OPERATION_DECISIONS = ['PROCEED', 'CANCEL'] as const;
export const ZOperationDecision = z.enum(OPERATION_DECISIONS);
export type TOperationDecision = z.infer<typeof ZOperationDecision>;

/** Operation modes shown by the viewers (spec 2 §2.6, §9): 0 NORMAL, 1 STABLE, 2 ANOMALY. */
export const OPERATION_MODE_NORMAL = 0;
export const OPERATION_MODE_STABLE = 1;
export const OPERATION_MODE_ANOMALY = 2;

/** Operations viewer page size: the viewers' one (issue 24 point 7; the spec's 10, spec 2 §9, made 20 like the others). */
export const OPERATIONS_VIEWER_PAGE_SIZE = VIEWER_PAGE_SIZE;
/** Largest page of `GET /operations` (the spec's console asked for 300). */
export const MAX_OPERATIONS_PAGE = 300;
/**
 * Operations carried inside each machine of a list: its unfinished operations
 * (queued, pending or running), newest first, at most this many. What the
 * machine table needs (spec 2 §2.2: the latest pending, cancelled or running
 * operation, the warning row); finished ones are read from `GET /operations`.
 */
export const MACHINE_UNFINISHED_OPERATIONS = 5;

/** An operation type of a class (spec 2 §3 Operation type). */
export const ZOperationType = z.object({
  id: z.number().int(),
  name: ZOperationTypeName,
  description: z.string(),
  canBeManual: z.boolean(),
  machineClassId: z.number().int(),
  /** Seconds an operation of this type may run before it ends FAILURE. */
  timeout: z.number().int(),
});
export type TOperationType = z.infer<typeof ZOperationType>;
export const ZOperationTypesResponse = z.array(ZOperationType);
export type TOperationTypesResponse = z.infer<typeof ZOperationTypesResponse>;

// ---------------------------------------------------------------- operations

/**
 * An operation (spec 2 §3 Operation). Times are ISO 8601 UTC. `timestamp` is when
 * it was queued; `startTime` when it started RUNNING (null before); `finishTime`
 * when it ended; `runningTime` seconds from start to finish, or to now while
 * running. `pending` is true while it waits for approval; `decision` is the
 * operator's PROCEED or CANCEL (CANCEL until the agent ends it: "being
 * cancelled"). `user` is who queued it: a username, or `MMA`, `Scheduler`,
 * `Updater`. The output and deployer log are read by their own calls.
 */
/**
 * Why a queued operation has not started (issue 24 point 1; the agent's start
 * rules, DESIGN §12), the first that holds: being cancelled, waiting for
 * approval, scheduled for later, the machine being terminated, its MMA class on
 * standby, the machine in Panic, unmanaged, in manual maintenance, its instance
 * not running, a task running, another operation running, an older operation
 * queued first; else starting (the agent takes it within seconds).
 */
export const OPERATION_WAITING_REASONS = [
  'cancelling',
  'approval',
  'freeze',
  'notBefore',
  'machineTerminating',
  'classStandby',
  'mmaDisconnected',
  'panic',
  'unmanaged',
  'manualMaintenance',
  'instanceNotRunning',
  'taskRunning',
  'operationRunning',
  'behindOperation',
  'starting',
] as const;
export const ZOperationWaitingReason = z.enum(OPERATION_WAITING_REASONS);
export type TOperationWaitingReason = z.infer<typeof ZOperationWaitingReason>;

/** What a queued operation waits for: the rule and the sentence an operator reads (what it waits for, who can release it). */
export const ZOperationWaiting = z.object({ reason: ZOperationWaitingReason, message: z.string() });
export type TOperationWaiting = z.infer<typeof ZOperationWaiting>;

export const ZOperation = z.object({
  id: z.number().int(),
  machineId: z.number().int(),
  accountId: z.number().int(),
  machineName: z.string(),
  /** The name of the machine's account. */
  accountName: z.string(),
  machineClassId: z.number().int(),
  machineClassName: z.string(),
  type: z.object({ name: ZOperationTypeName, description: z.string() }),
  typeName: ZOperationTypeName,
  operationTypeName: ZOperationTypeName,
  operationTypeDescription: z.string(),
  timestamp: z.string(),
  /** Not before this time (a delayed forced backup); null to start as soon as the rules allow. */
  notBefore: z.string().nullable(),
  startTime: z.string().nullable(),
  finishTime: z.string().nullable(),
  runningTime: z.number().nullable(),
  user: z.string(),
  status: ZOperationStatus.nullable(),
  pending: z.boolean(),
  decision: ZOperationDecision.nullable(),
  /** Who proceeded or cancelled it. */
  decidedBy: z.string().nullable(),
  /** The dialog's parameters (e.g. altString, fileName, branch, backup files). */
  params: z.record(z.string(), z.unknown()),
  /** Seconds before a running operation ends FAILURE. */
  timeout: z.number().int(),
  /** The machine's failCounter when the operation finished (its value now while unfinished). */
  failCounter: z.number().int(),
  /** The machine's operation mode when the operation was queued. */
  operationMode: z.number().int(),
  /** The audit activity that caused it (an operator's action, the updater, the scheduler, the agent). */
  activityId: z.number().int().nullable(),
  /** Why it has not started; null once it has started or finished. */
  waiting: ZOperationWaiting.nullable(),
});
export type TOperation = z.infer<typeof ZOperation>;

/** `/machines/{id}/operations/{operationId}` path parameters. */
export const ZMachineOperationParams = z.object({ id: ZId, operationId: ZId });

/** `GET /machines/{id}/operations`: newest first (Operation Logs dialog, load more). */
export const ZMachineOperationsQuery = ZPageQuery;
export const ZOperationListResponse = zPaged(ZOperation);
export type TOperationListResponse = z.infer<typeof ZOperationListResponse>;

/**
 * How far past the requested page `GET /operations` counts matching rows: the
 * total of a filter with more rows than `startIndex + limit + OPERATIONS_COUNT_AHEAD`
 * is answered as that many with `totalCapped` true ("at least"), so that a page
 * never counts a million rows. Paging on past the cap moves it on.
 */
export const OPERATIONS_COUNT_AHEAD = 1000;

/**
 * `GET /operations`: a page, newest first. `totalItems` is exact when
 * `totalCapped` is false; when true there are at least `totalItems` rows
 * (see {@link OPERATIONS_COUNT_AHEAD}).
 */
export const ZOperationsPage = zPaged(ZOperation).extend({ totalCapped: z.boolean() });
export type TOperationsPage = z.infer<typeof ZOperationsPage>;

/**
 * The statuses the Operations viewer filters by: the stored ones, and QUEUED
 * (no status, not waiting for approval, not finished: queued or being
 * cancelled) and PENDING (waiting for approval).
 */
export const OPERATION_FILTER_STATUSES = [...OPERATION_STATUSES, 'QUEUED', 'PENDING'] as const;
export const ZOperationFilterStatus = z.enum(OPERATION_FILTER_STATUSES);
export type TOperationFilterStatus = z.infer<typeof ZOperationFilterStatus>;

/**
 * The orders of `GET /operations` (`sort`), each walked on an index: `queued`
 * (queue order: the id), `started` and `finished` (not started / not finished
 * ones first when descending, last when ascending; then by id).
 */
export const OPERATION_SORTS = ['queued', 'started', 'finished'] as const;
export const ZOperationSort = z.enum(OPERATION_SORTS);
export type TOperationSort = z.infer<typeof ZOperationSort>;

/**
 * `GET /operations` (Operations viewer, spec 2 §2.6; issue 24 point 7): paged,
 * filtered and sorted on the server, newest queued first by default
 * (`sort=queued&order=desc`). `machineId` is the viewer's machine selector;
 * `classId` the machine's class when queued; `status` a comma list of
 * {@link OPERATION_FILTER_STATUSES}; `type` an operation type name; `pending`
 * only those waiting for approval (or not); `from` and `to` bound the time it
 * was queued (inclusive, ISO 8601 with a zone; `to` not before `from`).
 */
export const ZOperationsQuery = z
  .object({
    ...PAGE_QUERY_FIELDS,
    limit: PAGE_QUERY_FIELDS.limit.pipe(z.number().max(MAX_OPERATIONS_PAGE)),
    machineId: ZId.optional(),
    accountId: ZId.optional(),
    classId: ZId.optional(),
    status: zCommaList(ZOperationFilterStatus).pipe(z.array(ZOperationFilterStatus).max(OPERATION_FILTER_STATUSES.length)).optional(),
    type: ZOperationTypeName.optional(),
    pending: ZQueryFlag.optional(),
    ...TIME_RANGE_FIELDS,
    sort: ZOperationSort.default('queued'),
    order: ZSortOrder.default('desc'),
  })
  .superRefine(refineTimeRange);
export type TOperationsQuery = z.input<typeof ZOperationsQuery>;

/** `GET /operations/{id}/output` and `/deployer-log`: the log so far ('' when empty; the console shows None). */
export const ZOperationLog = z.object({
  operationId: z.number().int(),
  content: z.string(),
});
export type TOperationLog = z.infer<typeof ZOperationLog>;

// ---------------------------------------------------------------- calls that queue operations

/** Manual backup delays, minutes (spec 2 §2.3, §9): Now, 3, 10, 30. */
export const FORCE_BACKUP_DELAYS = [0, 3, 10, 30] as const;

/** `POST /machines/{id}/force-backup`: a manual Backup after `timeToBackup` minutes. */
export const ZForceBackupRequest = z.object({
  // The bounds restate the enum for the OpenAPI document (every number states its range).
  timeToBackup: z.literal(FORCE_BACKUP_DELAYS, { error: 'Must be 0, 3, 10 or 30 minutes' }).meta({ minimum: 0, maximum: 30 }),
});
export type TForceBackupRequest = z.infer<typeof ZForceBackupRequest>;

/** Letters and digits only (spec 2 §5 Force Populate). */
export const ALT_STRING_PATTERN = /^[A-Za-z0-9]*$/;

/** `POST /machines/{id}/force-populate`: Launcher or SiteMaster (at least one) and an alt string. */
export const ZForcePopulateRequest = z
  .object({
    populateLauncher: z.boolean(),
    populateSiteMaster: z.boolean(),
    altString: z.string().max(100).regex(ALT_STRING_PATTERN, 'Letters and digits only').default(''),
  })
  .refine((v) => v.populateLauncher || v.populateSiteMaster, {
    path: ['populateLauncher'],
    message: 'Tick Launcher or SiteMaster',
  });
export type TForcePopulateRequest = z.input<typeof ZForcePopulateRequest>;

/** `POST /machines/{id}/publish-sample-data`: the sample data file to publish as. */
export const ZPublishSampleDataRequest = z.object({
  fileName: z.string().trim().min(1, 'File name is required').max(200),
});
export type TPublishSampleDataRequest = z.infer<typeof ZPublishSampleDataRequest>;

/**
 * `POST /machines/{id}/create-ami`: a jump-start image of the machine. `name` is
 * the image's, and the jump-start SaaS image's it becomes: a SaaS image name
 * (`ZImageName`); `irmnVersion` is an IRMN version name.
 */
export const ZCreateAmiRequest = z.object({
  name: ZImageName,
  description: z.string().trim().max(1000).default(''),
  irmnVersion: z.string().trim().min(1, 'IRMN version is required').max(100),
});
export type TCreateAmiRequest = z.input<typeof ZCreateAmiRequest>;

const ZBackupFileName = z.string().trim().min(1).max(500).nullable().default(null);

/** `POST /machines/{id}/restore-backup`: the backup files (names) to restore; at least one. */
export const ZRestoreBackupRequest = z
  .object({
    launcherBackupFile: ZBackupFileName,
    siteMasterBackupFile: ZBackupFileName,
    auditChangeLogBackupFile: ZBackupFileName,
  })
  .refine((v) => v.launcherBackupFile || v.siteMasterBackupFile || v.auditChangeLogBackupFile, {
    path: ['launcherBackupFile'],
    message: 'Choose at least one backup',
  });
export type TRestoreBackupRequest = z.input<typeof ZRestoreBackupRequest>;

/** `POST /machines/{id}/queue-operations`: operation type names; each must be manual for the machine's class. */
export const ZQueueOperationsRequest = z.object({
  operations: z.array(ZOperationTypeName).min(1, 'Choose at least one operation').max(OPERATION_TYPE_NAMES.length),
});
export type TQueueOperationsRequest = z.infer<typeof ZQueueOperationsRequest>;

/** `POST /machines/{id}/test-latest-code`: the branch to deploy and smoke-test (default master). */
export const DEFAULT_TEST_BRANCH = 'master';
export const ZTestLatestCodeRequest = z.object({
  branch: z.string().trim().min(1).max(200).default(DEFAULT_TEST_BRANCH),
});
export type TTestLatestCodeRequest = z.input<typeof ZTestLatestCodeRequest>;

/** `PATCH /machines/{id}/operations/{operationId}`: approve (PROCEED) or cancel (CANCEL) a pending operation. */
export const ZUpdateOperationRequest = z.object({ params: ZOperationDecision });

/** Most operations one `POST /operations/decisions` decides. */
export const MAX_OPERATION_DECISIONS = 200;

/**
 * `POST /operations/decisions` (the approvals inbox, issue 24 point 2): one
 * decision for a selection of operations, each decided and audited as
 * `PATCH /machines/{id}/operations/{operationId}` would.
 */
export const ZOperationDecisionsRequest = z.object({
  decision: ZOperationDecision,
  operationIds: z.array(ZId).min(1).max(MAX_OPERATION_DECISIONS),
});
export type TOperationDecisionsRequest = z.infer<typeof ZOperationDecisionsRequest>;

/** The operations decided, and those refused with the reason (unknown or hidden, not pending for PROCEED, started for CANCEL). */
export const ZOperationDecisionsResponse = z.object({
  decided: z.array(ZOperation),
  refused: z.array(z.object({ operationId: z.number().int(), message: z.string() })),
});
export type TOperationDecisionsResponse = z.infer<typeof ZOperationDecisionsResponse>;

/** `GET /operations/pending-count`: the operations waiting for approval that the user can see (the top bar's 'Pending approvals'). */
export const ZPendingApprovals = z.object({ count: z.number().int() });
export type TPendingApprovals = z.infer<typeof ZPendingApprovals>;
export type TUpdateOperationRequest = z.infer<typeof ZUpdateOperationRequest>;

/** What every call that queues operations answers: the operations it queued. */
export const ZQueuedOperationsResponse = z.object({ operations: z.array(ZOperation) });
export type TQueuedOperationsResponse = z.infer<typeof ZQueuedOperationsResponse>;

// ---------------------------------------------------------------- site server status

/** `GET /machines/{id}/site-server-status` (spec 2 §2.3 Server Status, §3; DESIGN §14). */
export const ZSiteServerStatus = z.object({
  status: z.string(),
  operational: z.boolean(),
  diskSpaceOk: z.boolean(),
  interServerCommOk: z.boolean(),
  libraryImportOk: z.boolean(),
  mongoOk: z.boolean(),
  rabbitMqOk: z.boolean(),
});
export type TSiteServerStatus = z.infer<typeof ZSiteServerStatus>;

// ---------------------------------------------------------------- push events

/** Operation events of `/taskHub` (DESIGN §12); each carries one {@link TOperation}. */
export const OPERATION_EVENTS = ['OperationQueued', 'OperationStarted', 'OperationFinished'] as const;
export type TOperationEventName = (typeof OPERATION_EVENTS)[number];
