/**
 * Audit activities (spec 2 §2.11, §3 Audit activity, §7 Audit; spec 1 §9 action codes;
 * issue 24 point 6: filters by user and time, sign-ins hidden unless asked for, one
 * activity by id with the machines and accounts it names, a timeline around it).
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, ZId, ZQueryFlag, ZSortDirection } from './common.js';
import { ZTask } from './machines.js';
import { ZOperation } from './operations.js';

/** Action codes of account actions (spec 1 §9), then the platform's own. */
export const AUDIT_ACTIONS = [
  'CreateAccount',
  'DeleteAccount',
  'PushAccountProperties',
  'PushLicenseSettings',
  'PushInstanceSettings',
  'PushBackupSettings',
  'PushIdleSchedule',
  'ViewLauncherLogins',
  'Login',
  'LoginFailed',
  'Logout',
  'ChangePassword',
  'SaveDraftAccount',
  'UpdateSite',
  'CreateTemplate',
  'UpdateTemplate',
  'DeleteTemplate',
  'MarkCommitBreaking',
  'SendCreationMail',
  'StartMachine',
  'StopMachine',
  'TerminateMachine',
  'RecreateMachine',
  'ResetFailureState',
  'ChangeInstanceType',
  'UpdateMachine',
  'CreateMachine',
  'CancelTask',
  'ViewCredential',
  'UpdateComponentConfig',
  'UpdateDeployerConfig',
  'CreateComponentConfig',
  'CreateDeployerConfig',
  /** A definition of the config catalogues edited or deleted (spec 3 §2.5). */
  'UpdateComponentConfigDefinition',
  'DeleteComponentConfigDefinition',
  'UpdateDeployerConfigDefinition',
  'DeleteDeployerConfigDefinition',
  'SendNotification',
  'GenerateAccountKeys',
  'DownloadAccountKeys',
  'FollowLatestCommit',
  'QueueOperations',
  'ForceBackup',
  'ForcePopulate',
  'PublishSampleData',
  'CreateJumpStartAmi',
  'RestoreBackup',
  'TestLatestCode',
  'ResetLastOperation',
  'ProceedOperation',
  'CancelOperation',
  /** The agent switched a class's standby on after an anomaly (DESIGN §12); user `MMA`. */
  'MmaStandby',
  /** An operator resolved or reopened an issue (spec 2 §8 Update issue; DESIGN §14). */
  'UpdateIssue',
  /** The image catalogues (spec 3 §2.2, §2.3, §2.4). */
  'CreateIrmnVersion',
  'UpdateIrmnVersion',
  'DeleteIrmnVersion',
  'CreateSaasImage',
  'UpdateSaasImage',
  'DeleteSaasImage',
  'DeleteCloudImage',
  /** Scheduled actions (DESIGN §13); user `Scheduler`. */
  'ScheduledBackup',
  'BackupRetention',
  'IdleStop',
  'IdleResume',
  'AutoStop',
  /** An operator edited an MMA class and its instance (spec 3 §2.7). */
  'UpdateMmaClass',
  /** Remote MMAs (issue 27 point 1): a registration token created by an admin, exchanged by an MMA (user `MMA`), a credential revoked. */
  'CreateMmaRegistrationToken',
  'RegisterMmaAgent',
  'RevokeMmaAgent',
  /** Library Manager (spec 3 §2.6): files imported from the cloud library, files deleted with their objects. */
  'SyncLibraryFiles',
  'DeleteLibraryFiles',
  /** The updater (spec 3 §2.8, §7 Updater and batch; DESIGN §15): one activity per request, every target with its changes. */
  'BatchUpdateMachines',
  'BatchUpdateAccounts',
  'BatchUpdateComponentConfigs',
  'BatchUpdateDeployerConfigs',
  'UpdateMachinesSoftware',
  'UpdateAccountsSoftware',
  /** A rollout's wave applied (user of the rollout), halted by its threshold (user `Rollout`), paused, resumed or aborted by an operator. */
  'RolloutWave',
  'RolloutHalted',
  'PauseRollout',
  'ResumeRollout',
  'AbortRollout',
  'SaveSelection',
  'DeleteSelection',
  /** Notification channels (issue 28 point 3): added, edited, removed, subscribed, unsubscribed, tested by an admin. */
  'AddNotificationChannel',
  'EditNotificationChannel',
  'RemoveNotificationChannel',
  'AddNotificationSubscription',
  'RemoveNotificationSubscription',
  'TestNotificationChannel',
] as const;
export const ZAuditAction = z.enum(AUDIT_ACTIONS);
export type TAuditAction = z.infer<typeof ZAuditAction>;

/** Audit log page sizes (spec 2 §9): first page 10, then 10 per scroll. */
export const AUDIT_PAGE_SIZE = 10;

export const ZAuditChange = z.object({
  entityName: z.string(),
  propertyName: z.string(),
  oldValue: z.unknown(),
  newValue: z.unknown(),
});
export type TAuditChange = z.infer<typeof ZAuditChange>;

export const ZUserActivity = z.object({
  id: z.number().int(),
  action: z.string(),
  user: z.string(),
  time: z.string(),
  accounts: z.array(z.object({ id: z.number().int(), name: z.string() })),
  metadata: z.object({
    params: z.record(z.string(), z.unknown()),
    changes: z.array(ZAuditChange),
  }),
});
export type TUserActivity = z.infer<typeof ZUserActivity>;

/** The sign-in actions: left out of the log unless asked for (`signIns=true`) or named by `action`. */
export const SIGN_IN_ACTIONS = ['Login', 'LoginFailed', 'Logout'] as const satisfies readonly TAuditAction[];

const isoTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date and time with a time zone, e.g. 2026-11-28T09:00:00Z` })
    .max(40, `${field} must be an ISO 8601 date and time with a time zone`);

/**
 * `GET /user-activities` (spec 2 §7 Audit; issue 24 point 6). Filters: account,
 * action, user (the exact user name), time range (`from` and `to`, inclusive,
 * ISO 8601 with a zone; `to` not before `from`), and `signIns` (false by
 * default: Login, LoginFailed and Logout are left out unless `action` names one).
 *
 * Paging: `startIndex` and `limit` as the spec says; and two anchors, by
 * activity id, for a timeline opened at one activity: `fromId` starts the list at
 * that activity's place in the list's order (it included when it matches the
 * filters; `startIndex` then counts from there), `beforeId` answers the `limit`
 * activities just before its place, still in the list's order. At most one
 * anchor; an unknown or hidden anchor is 404.
 */
export const ZUserActivitiesQuery = z
  .object({
    accountId: ZId.optional(),
    action: ZAuditAction.optional(),
    user: z.string().trim().min(1, 'User must not be empty').max(100).optional(),
    from: isoTime('From').optional(),
    to: isoTime('To').optional(),
    signIns: ZQueryFlag.optional(),
    fromId: ZId.optional(),
    beforeId: ZId.optional(),
    startIndex: PAGE_QUERY_FIELDS.startIndex,
    limit: z.coerce.number().int().min(1).max(1000).default(AUDIT_PAGE_SIZE),
    sortDirection: ZSortDirection.default('Descending'),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && Date.parse(q.to) < Date.parse(q.from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must not be before From', input: q.to });
    }
    if (q.fromId !== undefined && q.beforeId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['beforeId'], message: 'Give fromId or beforeId, not both', input: q.beforeId });
    }
  });
export type TUserActivitiesQuery = z.input<typeof ZUserActivitiesQuery>;
export const ZUserActivitiesResponse = z.array(ZUserActivity);

/** How many machines, and how many accounts, one activity's answer names (`named`); the rest show by id. */
export const MAX_NAMED_PER_ACTIVITY = 200;

/**
 * `GET /user-activities/{id}` (issue 24 point 6): one activity, with `named`: the
 * machines and accounts it names by id (in its changes' entity names `Machine 17`
 * / `Account 4`, in params machineId(s), machines, accountId(s), accounts, and its
 * accounts) that exist, are not deleted and are visible to the user, with their
 * names now, at most {@link MAX_NAMED_PER_ACTIVITY} of each, by id.
 */
export const ZUserActivityDetail = ZUserActivity.extend({
  named: z.object({
    machines: z.array(z.object({ id: z.number().int(), name: z.string(), accountId: z.number().int() })).max(MAX_NAMED_PER_ACTIVITY),
    accounts: z.array(z.object({ id: z.number().int(), name: z.string() })).max(MAX_NAMED_PER_ACTIVITY),
  }),
});
export type TUserActivityDetail = z.infer<typeof ZUserActivityDetail>;

/** Most user names `GET /user-activities/users` answers. */
export const MAX_ACTIVITY_USERS = 500;

/** `GET /user-activities/users`: the users of the activities the caller may see, by name, at most {@link MAX_ACTIVITY_USERS}. */
export const ZActivityUsersResponse = z.array(z.string()).max(MAX_ACTIVITY_USERS);

/**
 * How many targets' changes the activity of a request that starts a rollout
 * lists (UpdateMachinesSoftware / UpdateAccountsSoftware with a rollout): the
 * first changed targets in request order; params `changedTargets` counts them
 * all and `listedTargets` those listed. Each wave's RolloutWave activity lists
 * every target of its wave.
 */
export const AUDIT_LISTED_TARGETS = 50;

// ---------------------------------------------------------------- the trail

/**
 * `GET /user-activities/{id}/trail` (DESIGN §12 one trail): the tasks and the
 * operations an audit activity caused, each with its outcome, oldest first.
 */
export const ZActivityTrail = z.object({
  tasks: z.array(ZTask),
  operations: z.array(ZOperation),
});
export type TActivityTrail = z.infer<typeof ZActivityTrail>;
