/**
 * Audit activities (spec 2 §2.11, §3 Audit activity, §7 Audit; spec 1 §9 action codes).
 */
import { z } from 'zod';
import { PAGE_QUERY_FIELDS, ZId, ZSortDirection } from './common.js';
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

export const ZUserActivitiesQuery = z.object({
  accountId: ZId.optional(),
  action: ZAuditAction.optional(),
  startIndex: PAGE_QUERY_FIELDS.startIndex,
  limit: z.coerce.number().int().min(1).max(1000).default(AUDIT_PAGE_SIZE),
  sortDirection: ZSortDirection.default('Descending'),
});
export type TUserActivitiesQuery = z.input<typeof ZUserActivitiesQuery>;
export const ZUserActivitiesResponse = z.array(ZUserActivity);

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
