/**
 * Remote MMAs (issue 27 point 1; DESIGN §17): the machine management agents
 * that run a class's operations as processes of their own, on their own hosts.
 *
 * An admin creates a **registration token** for a class on the MMA screen
 * (`POST /mma/classes/{id}/registration-tokens`): shown once, single use,
 * valid {@link MMA_REGISTRATION_TOKEN_TTL_S} seconds. The MMA process exchanges
 * it (`POST /mma-agent/register`) for its own **authentication token** (the
 * credential it sends on every MMA protocol call), which the server keeps
 * hashed and an admin can revoke (`POST /mma/agents/{id}/revoke`). The terms are
 * GitLab Runner's (registration token, runner authentication token) and the
 * GitHub Actions runner's (a registration token exchanged once for the
 * runner's credential).
 */
import { z } from 'zod';
import { ZId, ZRefId, zBoundedMap } from './common.js';
import { ZBackupSoftware } from './backups.js';
import { CLOUD_IMAGE_STATES } from './images.js';
import { HOST_NAME_MESSAGE, HOST_NAME_PATTERN } from './mma.js';
import { ZOperationTypeName, ZSiteServerStatus, type TOperationTypeName } from './operations.js';

/** How long a registration token can be exchanged, seconds (1 hour). */
export const MMA_REGISTRATION_TOKEN_TTL_S = 3600;
/** An MMA seen by the server within this many seconds is connected (it long-polls every 30 s at most, heartbeats every 5 s). */
export const MMA_AGENT_CONNECTED_S = 60;
/** The first characters of every registration token (a leaked one is recognisable, as GitLab's `glrt-`). */
export const MMA_REGISTRATION_TOKEN_PREFIX = 'mmar_';
/** The first characters of every MMA authentication token. */
export const MMA_AUTHENTICATION_TOKEN_PREFIX = 'mmat_';
/** Longest token accepted anywhere (ours are 5 + 43 characters). */
const MAX_TOKEN_LENGTH = 100;

/** `POST /mma/classes/{id}/registration-tokens`: the token, shown this once, and until when it can be exchanged. */
export const ZMmaRegistrationToken = z.object({
  mmaClassId: z.number().int(),
  token: z.string(),
  expiresAt: z.string(),
});
export type TMmaRegistrationToken = z.infer<typeof ZMmaRegistrationToken>;

/**
 * A registered MMA (`GET /mma/agents`): its class, the host and version it
 * registered with (updated by each call that names them), who created the
 * registration token it used, when it was last seen and from which address,
 * whether it is connected (seen within {@link MMA_AGENT_CONNECTED_S}), the
 * operations it runs now, and its revocation. `tokenHint` is the first
 * characters of its authentication token after the prefix, to tell two
 * credentials apart (never enough to use one).
 */
export const ZMmaAgent = z.object({
  id: z.number().int(),
  mmaClassId: z.number().int(),
  mmaClassName: z.string(),
  host: z.string(),
  version: z.string(),
  tokenHint: z.string(),
  registeredAt: z.string(),
  registeredBy: z.string(),
  lastSeenAt: z.string().nullable(),
  lastAddress: z.string().nullable(),
  connected: z.boolean(),
  runningOperations: z.number().int(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type TMmaAgent = z.infer<typeof ZMmaAgent>;
export const ZMmaAgentsResponse = z.object({ items: z.array(ZMmaAgent) });
export type TMmaAgentsResponse = z.infer<typeof ZMmaAgentsResponse>;

/** The MMA's own description, sent when it registers and on its calls: its host name and its version. */
export const ZMmaAgentIdentity = z.object({
  host: z.string().trim().min(1, 'Host is required').max(253).regex(HOST_NAME_PATTERN, HOST_NAME_MESSAGE),
  version: z.string().trim().min(1, 'Version is required').max(100),
});

/** `POST /mma-agent/register`: a registration token exchanged, once, for the MMA's authentication token. */
export const ZMmaAgentRegisterRequest = ZMmaAgentIdentity.extend({
  token: z.string().trim().min(1, 'Token is required').max(MAX_TOKEN_LENGTH),
});
export type TMmaAgentRegisterRequest = z.infer<typeof ZMmaAgentRegisterRequest>;

/** `POST /mma-agent/register`: the MMA's id and class, and its authentication token (kept by the MMA; the server keeps its hash). */
export const ZMmaAgentRegisterResponse = z.object({
  id: z.number().int(),
  mmaClassId: z.number().int(),
  token: z.string(),
});
export type TMmaAgentRegisterResponse = z.infer<typeof ZMmaAgentRegisterResponse>;

/** `GET /mma-agent/whoami`: the MMA the authentication token belongs to (a check that the credential works). */
export const ZMmaAgentSelf = z.object({ id: z.number().int(), mmaClassId: z.number().int(), host: z.string(), version: z.string() });
export type TMmaAgentSelf = z.infer<typeof ZMmaAgentSelf>;

/*
 * A remote MMA runs every operation type (issue 27 point 2): the ones whose
 * work is all on the machine (their output and deployer log); UpdateSoftware
 * and TestLatestCode, whose deployed versions (fixed in their params at the
 * claim) the server records at the finish; Backup, whose files the MMA uploads
 * (`PUT /mma-agent/operations/{id}/backup-files/{software}`) before its
 * SUCCESS; RestoreBackup, whose chosen files it downloads (`GET` of the same
 * path) before it restores them; PublishSampleData, whose file it uploads
 * (`PUT /mma-agent/operations/{id}/sample-data-file`); and CreateJumpStartAmi,
 * whose machine the MMA prepares before the server's cloud images it
 * (`POST /mma-agent/operations/{id}/image`, until available) and its SUCCESS
 * registers the jump-start image.
 */

/**
 * The operation types whose `params.versions` is what they install (fixed when
 * they start: by the simulated effect, or at a remote MMA's claim) and whose
 * SUCCESS records it as installed.
 */
export const DEPLOY_OPERATION_TYPES = ['UpdateSoftware', 'TestLatestCode'] as const satisfies readonly TOperationTypeName[];

/** `typeName` is one of {@link DEPLOY_OPERATION_TYPES}. */
export const isDeployType = (typeName: string): boolean => (DEPLOY_OPERATION_TYPES as readonly string[]).includes(typeName);

/**
 * Operation types that can run again from the start after their MMA was lost
 * (their work ends in the same state however often it runs): a lost one is
 * offered again (attempt + 1); any other type ends FAILURE 'MMA lost'.
 */
export const IDEMPOTENT_OPERATION_TYPES = [
  'SmokeTest',
  'ApplyConfig',
  'UpdateSoftware',
  'TestLatestCode',
  'Backup',
  'CreateJumpStartAmi',
] as const satisfies readonly TOperationTypeName[];

/** A remote MMA's lease on an operation lasts this long without a heartbeat, seconds (`MMA_LEASE_S`). */
export const MMA_LEASE_S_DEFAULT = 60;
/** Longest long poll of a claim, seconds. */
export const MMA_CLAIM_WAIT_MAX_S = 30;
/** Most operations one claim answers (and one heartbeat renews). */
export const MMA_CLAIM_MAX_OPERATIONS = 64;
/** Longest text one append carries, characters. */
export const MMA_APPEND_MAX_CHARS = 65_536;
/** Longest log of one stream of one operation, characters (an append past it is refused). */
export const MMA_LOG_MAX_CHARS = 10_000_000;

/** A lease: the operation and the attempt that holds it (every write about the operation carries it). */
export const ZMmaLease = z.object({ operationId: ZRefId, attempt: z.number().int().min(1).max(1000) });
export type TMmaLease = z.infer<typeof ZMmaLease>;

/**
 * `POST /mma-agent/operations/claim`: up to `maxOperations` operations, waiting
 * up to `waitSeconds` for one. `leases`: the operations the MMA runs, renewed
 * before anything is claimed (as a heartbeat would), so that an MMA back from
 * an outage never has its own running operations offered to it again.
 */
export const ZMmaClaimRequest = z.object({
  maxOperations: z.number().int().min(1).max(MMA_CLAIM_MAX_OPERATIONS).default(1),
  waitSeconds: z.number().int().min(0).max(MMA_CLAIM_WAIT_MAX_S).default(MMA_CLAIM_WAIT_MAX_S),
  leases: z.array(ZMmaLease).max(MMA_CLAIM_MAX_OPERATIONS).default([]),
});
export type TMmaClaimRequest = z.input<typeof ZMmaClaimRequest>;

/**
 * An operation a claim gave the MMA: its lease, type, parameters (for
 * UpdateSoftware, `versions` is the target: `component → {branch}|{hash}`),
 * how long it may run (ms left before its timeout), its machine, and the
 * length of its output and deployer log so far (the offsets of the next
 * appends: a resumed operation keeps what the lost attempt wrote).
 */
export const ZMmaClaimedOperation = z.object({
  operationId: z.number().int(),
  attempt: z.number().int(),
  typeName: ZOperationTypeName,
  params: z.record(z.string(), z.unknown()),
  remainingMs: z.number().int(),
  resumed: z.boolean(),
  machine: z.object({
    id: z.number().int(),
    name: z.string(),
    accountId: z.number().int(),
    /** The active instance's host name and cloud id, or null. */
    hostName: z.string().nullable(),
    cloudId: z.string().nullable(),
    isLauncher: z.boolean(),
    isSiteMaster: z.boolean(),
    /** Spec 2 §3 sample data set and file (ReinstallSampleData). */
    sampleData: z.string(),
    sampleDataFile: z.string().nullable(),
    /** The machine's desired versions (`component → {branch}|{hash}`). */
    desiredVersions: z.record(z.string(), z.string()),
    /**
     * What the server knows the machine runs (`component → {branch}|{hash}`: its last deploy or report), so a
     * deployer changes only what differs; absent from servers before it was added.
     */
    installedVersions: z.record(z.string(), z.string()).optional(),
  }),
  outputOffset: z.number().int(),
  deployerLogOffset: z.number().int(),
});
export type TMmaClaimedOperation = z.infer<typeof ZMmaClaimedOperation>;
export const ZMmaClaimResponse = z.object({ operations: z.array(ZMmaClaimedOperation) });
export type TMmaClaimResponse = z.infer<typeof ZMmaClaimResponse>;

/** `POST /mma-agent/heartbeat`: the leases of the operations the MMA runs. */
export const ZMmaHeartbeatRequest = z.object({ leases: z.array(ZMmaLease).max(MMA_CLAIM_MAX_OPERATIONS) });
export type TMmaHeartbeatRequest = z.infer<typeof ZMmaHeartbeatRequest>;
/** Of those: the leases renewed, the ones lost (stop: another attempt or an operator ended it), and the ones to cancel (stop the command, then finish FAILURE). */
export const ZMmaHeartbeatResponse = z.object({
  renewed: z.array(z.number().int()),
  lost: z.array(z.number().int()),
  cancel: z.array(z.object({ operationId: z.number().int(), by: z.string() })),
});
export type TMmaHeartbeatResponse = z.infer<typeof ZMmaHeartbeatResponse>;

export const MMA_LOG_STREAMS = ['output', 'deployerLog'] as const;
/**
 * `POST /mma-agent/operations/{id}/append`: `text` (whole lines, each ending in
 * a newline) written at `offset` of `stream` (the stream's length in
 * characters when the MMA wrote it): a retried append whose text is already
 * there is not written twice; one past the end (a gap) is refused (409).
 */
export const ZMmaAppendRequest = z.object({
  attempt: z.number().int().min(1).max(1000),
  stream: z.enum(MMA_LOG_STREAMS),
  offset: z.number().int().min(0).max(MMA_LOG_MAX_CHARS),
  text: z.string().max(MMA_APPEND_MAX_CHARS),
});
export type TMmaAppendRequest = z.infer<typeof ZMmaAppendRequest>;
/** The stream's length after the append (the next offset). */
export const ZMmaAppendResponse = z.object({ offset: z.number().int() });
export type TMmaAppendResponse = z.infer<typeof ZMmaAppendResponse>;

/** The last lines of one log, sent with the finish: `text` at `offset`, as an append's. */
export const ZMmaLogPiece = z.object({
  offset: z.number().int().min(0).max(MMA_LOG_MAX_CHARS),
  text: z.string().max(MMA_APPEND_MAX_CHARS),
});
export type TMmaLogPiece = z.infer<typeof ZMmaLogPiece>;

/**
 * `POST /mma-agent/operations/{id}/finish`: how the attempt ended. A FAILURE's
 * `message` is the output's last line (and counts toward Panic). For
 * UpdateSoftware a SUCCESS means the claimed `versions` are installed: the
 * server records them (one path with the simulated agent's). `output` and
 * `deployerLog`, when given, are the logs' last lines, written in the finish's
 * own write as an append would write them (a short operation needs no append
 * at all); an offset past a stream's end is refused (409) and nothing ends.
 */
export const ZMmaFinishRequest = z.object({
  attempt: z.number().int().min(1).max(1000),
  status: z.enum(['SUCCESS', 'FAILURE']),
  message: z.string().trim().max(2000).optional(),
  output: ZMmaLogPiece.optional(),
  deployerLog: ZMmaLogPiece.optional(),
});
export type TMmaFinishRequest = z.infer<typeof ZMmaFinishRequest>;
export const ZMmaFinishResponse = z.object({ operationId: z.number().int(), status: z.enum(['SUCCESS', 'FAILURE']) });
export type TMmaFinishResponse = z.infer<typeof ZMmaFinishResponse>;

/** Largest backup or sample data file an MMA uploads, bytes (256 MiB; a larger one is refused, 413). */
export const MMA_BACKUP_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** `…/operations/{id}/backup-files/{software}`: the operation and the software whose backup file it is. */
export const ZMmaBackupFileParams = z.object({ id: ZId, software: ZBackupSoftware });
export type TMmaBackupFileParams = z.infer<typeof ZMmaBackupFileParams>;

/** The lease's attempt, in the query of a backup file's upload or download (their body is the file). */
export const ZMmaBackupFileQuery = z.object({ attempt: z.coerce.number().int().min(1).max(1000) });
export type TMmaBackupFileQuery = z.infer<typeof ZMmaBackupFileQuery>;

/**
 * `PUT /mma-agent/operations/{id}/backup-files/{software}` (body: the file,
 * `application/octet-stream` or `application/gzip`): the backup file the
 * server made of it, named and kept as the simulated agent's are. A retried
 * upload answers the file already made.
 */
export const ZMmaBackupFileUploaded = z.object({
  software: ZBackupSoftware,
  name: z.string(),
  size: z.number().int(),
  /** False when an earlier upload of this operation had made it already (this one's bytes were not kept). */
  created: z.boolean(),
});
export type TMmaBackupFileUploaded = z.infer<typeof ZMmaBackupFileUploaded>;

/** `…/operations/{id}/sample-data-file`: the lease's attempt. */
export const ZMmaSampleDataFileQuery = ZMmaBackupFileQuery;

/**
 * `PUT /mma-agent/operations/{id}/sample-data-file` (body: the zip,
 * `application/zip` or `application/octet-stream`): the sample data file the
 * server published from it, named by the operation's `fileName`. A retried
 * upload answers the file already made.
 */
export const ZMmaSampleDataFileUploaded = z.object({
  name: z.string(),
  size: z.number().int(),
  /** False when an earlier upload of this operation had made it already (this one's bytes were not kept). */
  created: z.boolean(),
});
export type TMmaSampleDataFileUploaded = z.infer<typeof ZMmaSampleDataFileUploaded>;

/** `POST /mma-agent/operations/{id}/image`: the lease's attempt. */
export const ZMmaImageRequest = z.object({ attempt: z.number().int().min(1).max(1000) });
export type TMmaImageRequest = z.infer<typeof ZMmaImageRequest>;

/**
 * The image of a CreateJumpStartAmi's machine that the server's cloud makes
 * (once per operation: a repeated call answers the same image, described
 * again): its id, state and region. Finish SUCCESS once it is `available`.
 */
export const ZMmaImage = z.object({ imageId: z.string(), status: z.enum(CLOUD_IMAGE_STATES), region: z.string() });
export type TMmaImage = z.infer<typeof ZMmaImage>;

/** Most components one report names. */
export const MMA_REPORT_MAX_COMPONENTS = 32;

/**
 * `POST /mma-agent/machines/{id}/report`: what the MMA read on a machine of its
 * class (issue 27 point 2, reports; AWS SSM's inventory is the anchor): its
 * site server status (spec 2 §2.3 Server Status; a false flag on a running
 * managed machine raises a `server-status` issue at the worker's next check)
 * and the versions installed (`component → {branch}|{hash}`, every component
 * it runs: a difference from what the server last knew writes a new current
 * version state; a difference from the desired versions makes the deploy
 * controller queue an UpdateSoftware). At least one of the two.
 */
export const ZMmaMachineReport = z
  .object({
    siteServerStatus: ZSiteServerStatus.extend({ status: z.string().trim().min(1).max(40) }).optional(),
    installedVersions: zBoundedMap(z.string().trim().min(1).max(64), z.string().trim().min(1).max(200), MMA_REPORT_MAX_COMPONENTS)
      .refine((v) => Object.keys(v).length >= 1, 'Name at least one component')
      .optional(),
  })
  .refine((r) => r.siteServerStatus !== undefined || r.installedVersions !== undefined, {
    message: 'Report siteServerStatus, installedVersions or both',
    path: ['siteServerStatus'],
  });
export type TMmaMachineReport = z.infer<typeof ZMmaMachineReport>;
/** What the report changed: `versionStateWritten` when the installed versions differed from the machine's current ones. */
export const ZMmaMachineReportResponse = z.object({ machineId: z.number().int(), reportedAt: z.string(), versionStateWritten: z.boolean() });
export type TMmaMachineReportResponse = z.infer<typeof ZMmaMachineReportResponse>;
