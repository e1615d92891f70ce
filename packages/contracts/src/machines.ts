/**
 * Machines, their tasks, the push channel and notifications (spec 2 §2.2–2.4, §3,
 * §4, §7 Machines and Notifications, §9; DESIGN §6, §7).
 */
import { z } from 'zod';
import { MAX_SEARCH_LENGTH, ZId, ZPageQuery, ZQueryFlag, ZRefId, ZSortOrder, zBoundedMap, zCommaList, zPaged } from './common.js';
import { ZBodyClassId, ZClassId, ZClassRef } from './classes.js';
import { CLASS_ADD_ON } from './constants.js';
import { ZOperation } from './operations.js';
import { ZBackupFile } from './backups.js';

// ---------------------------------------------------------------- tasks

/** Machine task types (DESIGN §6). */
export const TASK_TYPES = [
  'CreateMachine',
  'StartMachine',
  'StopMachine',
  'TerminateMachine',
  'RecreateMachine',
  'ChangeInstanceType',
] as const;
export const ZTaskType = z.enum(TASK_TYPES);
export type TTaskType = z.infer<typeof ZTaskType>;

/** Task statuses; only New can be cancelled (spec 2 §4). */
export const TASK_STATUSES = ['New', 'Running', 'Completed', 'Failed', 'Cancelled'] as const;
export const ZTaskStatus = z.enum(TASK_STATUSES);
export type TTaskStatus = z.infer<typeof ZTaskStatus>;
/** Statuses of a task that has not finished. */
export const UNFINISHED_TASK_STATUSES: readonly TTaskStatus[] = ['New', 'Running'];

/** Task types that drive the start, stop and terminate loading indicators (spec 2 §2.2). */
export const LOADING_TASK_TYPES: readonly TTaskType[] = ['StartMachine', 'StopMachine', 'TerminateMachine'];

/** A machine task (spec 2 §3 Task, DESIGN §7). Times are ISO 8601 UTC; progress 0–100. */
export const ZTask = z.object({
  id: z.number().int(),
  machineId: z.number().int(),
  accountId: z.number().int(),
  type: ZTaskType,
  status: ZTaskStatus,
  description: z.string(),
  progress: z.number().int().min(0).max(100),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Why a Failed task failed; null otherwise. */
  error: z.string().nullable(),
});
export type TTask = z.infer<typeof ZTask>;

export const ZTaskListQuery = ZPageQuery;
export const ZTaskListResponse = zPaged(ZTask);
export type TTaskListResponse = z.infer<typeof ZTaskListResponse>;

/** `/machines/{id}/tasks/{taskId}/...` path parameters. */
export const ZTaskParams = z.object({
  id: ZId,
  taskId: ZId,
});

// ---------------------------------------------------------------- push channel

/** Socket.IO path of the push channel (spec 2 §4, DESIGN §7). */
export const TASK_HUB_PATH = '/taskHub';
/** Reconnect delay of the push channel client, milliseconds (spec 2 §9). */
export const TASK_HUB_RETRY_MS = 2000;
/** Events of the push channel; each carries one {@link TTask}. */
export const TASK_EVENTS = ['TaskQueued', 'TaskStarted', 'TaskProgress', 'TaskFinished'] as const;
export type TTaskEventName = (typeof TASK_EVENTS)[number];

// ---------------------------------------------------------------- machines

/** States of a cloud instance (DESIGN §8). */
export const INSTANCE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated'] as const;
export const ZInstanceState = z.enum(INSTANCE_STATES);
export type TInstanceState = z.infer<typeof ZInstanceState>;

/** Operation modes (spec 2 §4, §9): 0 NORMAL, 1 STABLE, 2 ANOMALY. */
export const OPERATION_MODES: Record<number, string> = { 0: 'NORMAL', 1: 'STABLE', 2: 'ANOMALY' };

/** Sample data choices (spec 2 §9). */
export const SAMPLE_DATA_CHOICES = ['None', 'Default', 'Select'] as const;
export const ZSampleData = z.enum(SAMPLE_DATA_CHOICES);

/** Machine table page size (spec 2 §9) and machine list polling interval on the edit-account screen. */
export const MACHINE_PAGE_SIZE = 100;
export const MACHINE_POLL_MS = 30_000;
/**
 * Tasks carried inside each machine of a list: its unfinished (New or Running)
 * tasks, newest first, at most this many. What the machine table needs (spec 2
 * §2.2: the running task's description, the tasks count, the buttons disabled
 * while a task runs); finished tasks are read from `GET /machines/{id}/tasks`.
 */
export const MACHINE_UNFINISHED_TASKS = 10;

/** A class a machine may have: every class but the add-on class (which has no machines). */
export const ZMachineClassId = ZBodyClassId.refine((v) => v !== CLASS_ADD_ON, 'Add-on accounts have no machines');

export const ZMachineInstance = z.object({
  status: ZInstanceState,
  cloudId: z.string(),
  ipAddress: z.string(),
});

export const ZMachineInstanceType = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Disk size, GB. */
  storageSize: z.number().int(),
});

/** A machine as the machines panel shows it (spec 2 §3 Machine). */
export const ZMachine = z.object({
  id: z.number().int(),
  name: z.string(),
  class: ZClassRef,
  classId: z.number().int(),
  className: z.string(),
  accountId: z.number().int(),
  account: z.object({ id: z.number().int(), name: z.string() }),
  needsAdmin: z.boolean(),
  failCounter: z.number().int(),
  operationMode: z.number().int(),
  /** Unfinished (New or Running) tasks, newest first, at most {@link MACHINE_UNFINISHED_TASKS}. */
  tasks: z.array(ZTask),
  /** Unfinished operations (queued, pending or running), newest first, at most {@link MACHINE_UNFINISHED_OPERATIONS}. */
  operations: z.array(ZOperation),
  bundleVersion: z.string().nullable(),
  /** The machine's active cloud instance, or null when it has none (not created yet, terminated). */
  instance: ZMachineInstance.nullable(),
  cloudInstanceType: ZMachineInstanceType.nullable(),
  managed: z.boolean(),
  manualMaintenance: z.boolean(),
  turbo: z.boolean(),
  runSmokeTest: z.boolean(),
  overseeTermination: z.boolean(),
  stop: z.boolean(),
  idle: z.boolean(),
  terminate: z.boolean(),
  isLauncher: z.boolean(),
  isSiteMaster: z.boolean(),
  siteName: z.string().nullable(),
  siteId: z.number().int().nullable(),
  launcherUrl: z.string().nullable(),
  siteMasterUrl: z.string().nullable(),
  sampleData: ZSampleData,
  sampleDataFile: z.string().nullable(),
  config: z.object({
    componentConfig: z.record(z.string(), z.unknown()),
    deployerConfig: z.record(z.string(), z.unknown()),
  }),
});
export type TMachine = z.infer<typeof ZMachine>;

/** Backup files per software in a machine's detail (`GET /machines/{id}`), newest first. */
export const MACHINE_DETAIL_BACKUPS = 20;
/** Cloud instances in a machine's detail (`GET /machines/{id}`), newest first. */
export const MACHINE_DETAIL_CLOUD_INSTANCES = 10;

/** One of a machine's cloud instances (spec 2 §3 cloudInstances "with timestamp": when it was launched, ISO 8601 UTC; `status` is its state now). */
export const ZMachineCloudInstance = z.object({
  id: z.number().int(),
  cloudId: z.string(),
  hostName: z.string(),
  ipAddress: z.string(),
  privateIpAddress: z.string(),
  region: z.string(),
  /** Disk size, GB. */
  storageSize: z.number().int(),
  timestamp: z.string(),
  status: ZInstanceState,
  active: z.boolean(),
  dnsReady: z.boolean(),
});
export type TMachineCloudInstance = z.infer<typeof ZMachineCloudInstance>;

/**
 * `GET /machines/{id}`: the machine with its own backup files (spec 2 §3
 * cloudBackupsLauncher, cloudBackupsSiteMaster, cloudBackupsAuditChangeLog;
 * DESIGN §13), each newest first, at most {@link MACHINE_DETAIL_BACKUPS}; its
 * cloud instances, newest first, at most {@link MACHINE_DETAIL_CLOUD_INSTANCES};
 * and `grafanaUrl`, its dashboard in the provider's Grafana (`GRAFANA_URL`), null
 * unless its account's machineConfig.showInGrafana. Lists of machines answer
 * {@link ZMachine}, without them, so that a page of machines reads no backup,
 * instance history or settings rows.
 */
export const ZMachineDetail = ZMachine.extend({
  grafanaUrl: z.string().nullable(),
  cloudInstances: z.array(ZMachineCloudInstance),
  cloudBackupsLauncher: z.array(ZBackupFile),
  cloudBackupsSiteMaster: z.array(ZBackupFile),
  cloudBackupsAuditChangeLog: z.array(ZBackupFile),
});
export type TMachineDetail = z.infer<typeof ZMachineDetail>;

/**
 * `GET /machines`: visible live machines, of one account or the one `machineId`
 * (the viewers' selector), by account then name, or by name (`sort=name`, `order`;
 * the Machines viewer, issue 24 point 7); narrowed as the top bar's chips count
 * (spec 3 §2.9) by `classId`, `needsAdmin`, `turbo`, `unmanaged`, and as the
 * Updater's machine mode (spec 3 §2.8) by `classIds` and `search` (literally).
 */
export const MACHINE_SORTS = ['name'] as const;
export const ZListMachinesQuery = ZPageQuery.extend({
  accountId: ZId.optional(),
  machineId: ZId.optional(),
  classId: ZClassId.optional(),
  classIds: zCommaList(ZClassId).optional(),
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  needsAdmin: ZQueryFlag.optional(),
  turbo: ZQueryFlag.optional(),
  unmanaged: ZQueryFlag.optional(),
  sort: z.enum(MACHINE_SORTS).optional(),
  order: ZSortOrder.default('asc'),
});
export type TListMachinesQuery = z.input<typeof ZListMachinesQuery>;
export const ZListMachinesResponse = zPaged(ZMachine);
export type TListMachinesResponse = z.infer<typeof ZListMachinesResponse>;

/** `GET /accounts/{id}/machines` query. */
export const ZAccountMachinesQuery = ZPageQuery;

/** `/accounts/{id}/machines/{machineId}` path parameters. */
export const ZAccountMachineParams = z.object({
  id: ZId,
  machineId: ZId,
});

/**
 * `PATCH /accounts/{id}/machines/{machineId}`: a partial update of the switches,
 * class and sample data (spec 2 §7). At least one field; unknown fields are ignored.
 */
export const ZUpdateMachineRequest = z
  .object({
    managed: z.boolean(),
    manualMaintenance: z.boolean(),
    turbo: z.boolean(),
    runSmokeTest: z.boolean(),
    overseeTermination: z.boolean(),
    classId: ZMachineClassId,
    sampleData: ZSampleData,
    sampleDataFile: z.string().trim().max(255).nullable(),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'At least one field is needed');
export type TUpdateMachineRequest = z.infer<typeof ZUpdateMachineRequest>;

/** `POST /machines/{id}/change-instance-type`. */
export const ZChangeInstanceTypeRequest = z.object({
  instanceTypeId: ZRefId,
});
export type TChangeInstanceTypeRequest = z.infer<typeof ZChangeInstanceTypeRequest>;

/** A machine the account's instance policy still lacks (DESIGN §6). */
export const ZCreatableMachine = z.object({
  name: z.string(),
  isLauncher: z.boolean(),
  isSiteMaster: z.boolean(),
  siteId: z.number().int().nullable(),
  siteName: z.string().nullable(),
});
export type TCreatableMachine = z.infer<typeof ZCreatableMachine>;
export const ZCreatableMachinesResponse = z.array(ZCreatableMachine);

/** `POST /accounts/{id}/machines` (spec 2 §2.3 Create Machine). `accountId` must match the path. */
export const ZCreateMachineRequest = z.object({
  isLauncher: z.boolean(),
  siteId: ZRefId.nullable(),
  accountId: ZRefId,
});
export type TCreateMachineRequest = z.infer<typeof ZCreateMachineRequest>;
export const ZCreateMachineResponse = z.object({ machine: ZMachine, task: ZTask });

/**
 * `GET /machines/{id}/credential` (write permission; every read audited): the
 * instance's RDP password and SSH private key (PEM, downloaded as `id_rsa`).
 * 404 when the machine has none yet ('Credentials not found').
 */
export const ZMachineCredential = z.object({ rdpPassword: z.string(), sshPrivateKey: z.string() });
export type TMachineCredential = z.infer<typeof ZMachineCredential>;

/** Longest `search` text of `GET /lookup/machines`, characters. */
export const MACHINE_LOOKUP_SEARCH_MAX = 100;
/** Most `ids` of one `GET /lookup/machines`. */
export const MACHINE_LOOKUP_IDS_MAX = 100;
/** Default and largest `limit` of `GET /lookup/machines`. */
export const MACHINE_LOOKUP_DEFAULT_LIMIT = 50;
export const MACHINE_LOOKUP_MAX_LIMIT = 500;

/**
 * `GET /lookup/machines` query (spec 2 §2.1, §7): at most `limit` visible
 * machines (default 50, at most 500) ordered by name then id. `search` (trimmed,
 * 1–100 characters; blank means none) keeps the machines whose name contains it,
 * case-insensitively; `ids` (comma list, at most 100) keeps those machines (the
 * selector resolves its selected machine's label with it). Both together: both hold.
 */
export const ZMachineLookupQuery = z.object({
  search: z.string().trim().max(MACHINE_LOOKUP_SEARCH_MAX).optional(),
  ids: zCommaList(ZId)
    .refine((ids) => ids.length <= MACHINE_LOOKUP_IDS_MAX, `At most ${MACHINE_LOOKUP_IDS_MAX} ids`)
    .optional(),
  limit: z.coerce.number().int().min(1).max(MACHINE_LOOKUP_MAX_LIMIT).default(MACHINE_LOOKUP_DEFAULT_LIMIT),
});
export type TMachineLookupQuery = z.input<typeof ZMachineLookupQuery>;
export type TMachineLookupParsedQuery = z.output<typeof ZMachineLookupQuery>;

/** `GET /lookup/machines`: id, name and class name of visible machines (an array, see `ZMachineLookupQuery`). */
export const ZMachineLookup = z.object({ id: z.number().int(), name: z.string(), className: z.string() });
export type TMachineLookup = z.infer<typeof ZMachineLookup>;
export const ZMachineLookupResponse = z.array(ZMachineLookup);

// ---------------------------------------------------------------- notifications

/** Notification priorities; the dialog defaults to Medium (spec 2 §9). */
export const NOTIFICATION_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export const ZNotificationPriority = z.enum(NOTIFICATION_PRIORITIES);
export const DEFAULT_NOTIFICATION_PRIORITY = 'Medium';
/** Notification dialog width, pixels (spec 2 §9). */
export const NOTIFICATION_DIALOG_WIDTH = 750;

const ZIdList = z.array(ZRefId).max(1000);

/**
 * `POST /notification/send`: a message to the users of the machines and of every
 * machine of the accounts. Machines or accounts are needed, and a title and a body.
 */
export const ZSendNotificationRequest = z
  .object({
    machines: ZIdList.default([]),
    accounts: ZIdList.default([]),
    title: z.string().trim().min(1, 'Title is required').max(200),
    body: z.string().trim().min(1, 'Body is required').max(5000),
    priority: ZNotificationPriority.default(DEFAULT_NOTIFICATION_PRIORITY),
  })
  .superRefine((v, ctx) => {
    if (v.machines.length === 0 && v.accounts.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['machines'], message: 'Choose at least one machine or account' });
    }
  });
export type TSendNotificationRequest = z.input<typeof ZSendNotificationRequest>;
/** Messages queued: one per target machine. */
export const ZSendNotificationResponse = z.object({ queued: z.number().int() });

/** A message not yet delivered to its machine (spec 2 §3 Pending message). */
export const ZPendingMessage = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  machine: z.object({ id: z.number().int(), name: z.string() }),
  title: z.string(),
  body: z.string(),
  priority: ZNotificationPriority,
});
export type TPendingMessage = z.infer<typeof ZPendingMessage>;
export const ZPendingMessagesQuery = ZPageQuery.extend({
  machineId: ZId.optional(),
});
export const ZPendingMessagesResponse = zPaged(ZPendingMessage);
export type TPendingMessagesResponse = z.infer<typeof ZPendingMessagesResponse>;

// ---------------------------------------------------------------- component and deployer configs

/** Most keys a component or deployer configuration may hold. */
export const MAX_CONFIG_KEYS = 2000;

/**
 * A machine's component or deployer configuration: keys `rootKey.subKey`, values
 * typed by their definition's dataType (string when empty, number, boolean or
 * null, json) (spec 2 §3, §5).
 */
export const ZConfigMap = zBoundedMap(z.string().max(200), z.unknown(), MAX_CONFIG_KEYS);
export type TConfigMap = z.infer<typeof ZConfigMap>;

/** `PUT /machines/{id}/component-config`: the machine's whole component configuration. */
export const ZPutComponentConfigRequest = z.object({ componentConfig: ZConfigMap });
/** `PUT /machines/{id}/deployer-config`: the machine's whole deployer configuration. */
export const ZPutDeployerConfigRequest = z.object({ deployerConfig: ZConfigMap });

/** Default component configuration of a machine, from the catalogue with its variables substituted (DESIGN §6). */
export const ZDefaultComponentConfig = z.object({ machineId: z.number().int(), componentConfig: ZConfigMap });
export const ZDefaultDeployerConfig = z.object({ machineId: z.number().int(), deployerConfig: ZConfigMap });
export const ZDefaultComponentConfigsResponse = z.array(ZDefaultComponentConfig);
export const ZDefaultDeployerConfigsResponse = z.array(ZDefaultDeployerConfig);

/**
 * Batch current configurations (`GET /machines/component-configs?ids=…`,
 * `GET /machines/deployer-configs?ids=…`; spec 3 §2.8, §7 Updater and batch):
 * each machine's component or deployer configuration as saved now, in the order
 * asked, so that a batch edit keeps the keys it does not change.
 */
export const ZMachineComponentConfig = z.object({ machineId: z.number().int(), componentConfig: ZConfigMap });
export const ZMachineDeployerConfig = z.object({ machineId: z.number().int(), deployerConfig: ZConfigMap });
export const ZMachineComponentConfigsResponse = z.array(ZMachineComponentConfig);
export const ZMachineDeployerConfigsResponse = z.array(ZMachineDeployerConfig);

/** Batch defaults and current configurations: `ids` is a comma list of 1 to 200 machine ids (spec 3 §7 Updater and batch). */
export const ZMachineIdsQuery = z.object({
  ids: zCommaList(ZId).refine((ids) => ids.length > 0 && ids.length <= 200, 'From 1 to 200 machine ids'),
});
