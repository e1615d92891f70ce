/**
 * The MMA protocol (issue 27 point 2; DESIGN §17): what a registered MMA does
 * with the operations of its class, over `/mma-agent/...`. The anchors are
 * GitLab Runner's job request (a long poll answering jobs with a token per
 * job), its trace appends by range, and the GitHub Actions runner's
 * cancellation through the job's renewal.
 *
 * - `claim`: the operations of the MMA's class that the start rules let start
 *   (a registered MMA's while its class is remote; an MMA the worker runs in
 *   process, `in-process-mmas.ts`, while it is not)
 *   (`engine/operations/start-rules.ts`, the ones the worker's claim applies,
 *   not a copy), claimed by `claimOperations` with the class as its scope, so
 *   the leases, the one-RUNNING-per-machine rule and the resume of a lost
 *   idempotent operation are the worker's. The MMA's running `leases` are
 *   renewed before each look (an MMA back from an outage claims before its
 *   next heartbeat). A look at the class's queue answers up to four times the
 *   machines asked for; the next claims of the class try the ones kept
 *   (within a second) before looking again, and look again when the kept
 *   ones give less than asked. A poll ends at once, empty, when its client goes away or
 *   the server stops. Waits up to `waitSeconds` for one
 *   (polled every second: a level read, so nothing is missed). An
 *   UpdateSoftware without versions gets its machine's desired versions as its
 *   target at the claim, a TestLatestCode the newest commits of its branch
 *   (`latestCodeTarget`; checkpointed in its params, as the simulated agent
 *   does), so the MMA and the finish agree on what is installed.
 * - `heartbeat`: renews the leases this MMA holds (fenced: the operation is
 *   RUNNING, in that attempt, run by this MMA); the others are lost. A renewed
 *   one decided CANCEL is answered to cancel.
 * - `append`: `text` written at `offset` of the output or the deployer log
 *   (characters): the offset is the stream's length when the MMA wrote it, so
 *   a retried append already there is not written again; a gap is a 409. One
 *   fenced statement when it succeeds (`appendAt`).
 * - `finish`: SUCCESS or FAILURE (counted toward Panic; a FAILURE of an
 *   operation decided CANCEL is the cancel, 'Cancelled by X', not counted) through the worker's
 *   finish (`finishOperations`: failCounter, Panic, issues, OperationFinished,
 *   the anomaly rule). An UpdateSoftware or TestLatestCode SUCCESS records its
 *   versions first (`recordDeployedState`, the simulated agent's own write).
 *   The logs' last lines it carries are written in the finish's own UPDATE,
 *   at their offsets as an append's (a short operation costs no append); a
 *   gap is a 409 before any of the finish's effects.
 *
 * - `uploadBackupFile`, `downloadBackupFile`, `uploadSampleDataFile`: a
 *   Backup's files, a RestoreBackup's chosen ones and a PublishSampleData's
 *   file through the server's object store (`backup-files.ts`); a Backup's
 *   time is fixed in its params at the claim, and a SUCCESS is a FAILURE
 *   while a file it owes is missing.
 * - `image`: a CreateJumpStartAmi's image of its machine, made by the server's
 *   cloud once per operation; its SUCCESS registers the jump-start image
 *   (`jump-start-image.ts`), or is a FAILURE while the image is not available.
 * - `report`: a machine's site server status and installed versions
 *   (`machine_reports`, one row per machine); installed versions that differ
 *   from the current ones write a new current version state
 *   (`recordReportedVersions`, the deploy's write without an operation);
 *   unknown commits answer 422 and record nothing of the report.
 *
 * Every call about an operation is fenced by its lease: a stale MMA (its lease
 * lost to a resume, a timeout or an operator's reset) gets 409 and changes
 * nothing. An MMA sees only its class's operations (404 for another's).
 */
import type { EventEmitter } from 'node:events';
import { sql, type SQL } from 'drizzle-orm';
import {
  isDeployType,
  isVersionMap,
  MMA_CLAIM_WAIT_MAX_S,
  MMA_LEASE_S_DEFAULT,
  type TBackupSoftware,
  type TMmaAppendRequest,
  type TMmaBackupFileUploaded,
  type TMmaImage,
  type TMmaSampleDataFileUploaded,
  type TMmaClaimedOperation,
  type TMmaClaimResponse,
  type TMmaFinishRequest,
  type TMmaFinishResponse,
  type TMmaHeartbeatResponse,
  type TMmaLease,
  type TMmaMachineReport,
  type TMmaMachineReportResponse,
  type TOperationTypeName,
} from '@fleet/contracts';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { conflict, notFound, unprocessable } from '../../lib/problem.js';
import type { TaskEvents } from '../../engine/push/events.js';
import { claimOperations, DEFAULT_REMOTE_LEASE, type OperationClaims } from '../../engine/operations/agent-claim.repository.js';
import { selectMachinesNeedingAgent } from '../../engine/operations/agent-pass.repository.js';
import { createOperationFinisher } from '../../engine/operations/agent-finish.js';
import { cancelledOutcome, type OperationOutcome } from '../../engine/operations/agent-finish.repository.js';
import { mergeOperationParams } from '../../engine/operations/agent.repository.js';
import { AGENT_ENGINE_DEFAULTS } from '../../engine/operations/agent.js';
import { inProcessClass, remoteClass } from '../../engine/operations/start-rules.js';
import { latestCodeBranch, latestCodeTarget, recordDeployedState, recordReportedVersions } from '../../engine/desired-state/deploy-effects.js';
import type { MmaAgentPrincipal } from '../mma-agents/mma-agents.service.js';
import { CLAIM_POLL_MS, waitToLookAgain } from './claim-wait.js';
import { agentWorkerPrefix } from '../mma-agents/mma-agents.repository.js';
import type { ObjectStore } from '../../storage/object-store.js';
import type { CloudProvider } from '../../engine/cloud/provider.js';
import { operationImage, registerOperationImage } from './jump-start-image.js';
import * as repo from './mma-protocol.repository.js';
import { backupTimeOf, downloadBackupFile, missingBackups, sampleDataPublished, uploadBackupFile, uploadSampleDataFile } from './backup-files.js';

/** The engine settings the protocol applies (the worker's, from `Config.agent`). */
export interface MmaProtocolSettings {
  panicFailures: number;
  anomalyFailures: number;
  anomalyWindowMinutes: number;
  /** A remote MMA's lease without a heartbeat, seconds (`MMA_LEASE_S`). */
  mmaLeaseSeconds?: number;
  /** Leases count from this time at the earliest: the server process's start (default: no grace). */
  mmaLeaseGraceFrom?: Date;
  /** The longest a claim's long poll is held, seconds (`MMA_CLAIM_WAIT_MAX_S`; default the protocol's 30): a claim waits the lesser of it and its `waitSeconds`. */
  mmaClaimWaitMaxSeconds?: number;
  /** The worker's own operation lease, seconds (`OPERATION_LEASE_S`; default 30): a claim also ends what the worker would (timeouts past it). */
  operationLeaseSeconds?: number;
}

export interface MmaProtocolService {
  /**
   * `wakeups`: an emitter of `'wake'` when work may have come (a queued operation's NOTIFY): the waiting poll
   * looks again at once instead of at its next second (the MMAs in process; a remote MMA's poll has none).
   */
  claim(
    agent: MmaAgentPrincipal,
    o: { maxOperations: number; waitSeconds: number; leases?: TMmaLease[]; signal?: AbortSignal; wakeups?: EventEmitter },
  ): Promise<TMmaClaimResponse>;
  heartbeat(agent: MmaAgentPrincipal, leases: TMmaLease[]): Promise<TMmaHeartbeatResponse>;
  append(agent: MmaAgentPrincipal, operationId: number, body: TMmaAppendRequest): Promise<{ offset: number }>;
  finish(agent: MmaAgentPrincipal, operationId: number, body: TMmaFinishRequest): Promise<TMmaFinishResponse>;
  /** A Backup's file of `software` (`backup-files.ts`); fenced by the lease. */
  uploadBackupFile(agent: MmaAgentPrincipal, o: { operationId: number; attempt: number; software: TBackupSoftware; bytes: Uint8Array }): Promise<TMmaBackupFileUploaded>;
  /** A PublishSampleData's file (`backup-files.ts`); fenced by the lease. */
  uploadSampleDataFile(agent: MmaAgentPrincipal, o: { operationId: number; attempt: number; bytes: Uint8Array }): Promise<TMmaSampleDataFileUploaded>;
  /** A CreateJumpStartAmi's image of its machine, made once (`jump-start-image.ts`); fenced by the lease. */
  image(agent: MmaAgentPrincipal, o: { operationId: number; attempt: number }): Promise<TMmaImage>;
  /** A RestoreBackup's chosen file of `software` (`backup-files.ts`); fenced by the lease. */
  downloadBackupFile(agent: MmaAgentPrincipal, o: { operationId: number; attempt: number; software: TBackupSoftware }): Promise<{ name: string; bytes: Uint8Array }>;
  report(agent: MmaAgentPrincipal, machineId: number, body: TMmaMachineReport): Promise<TMmaMachineReportResponse>;
}

const MAX_ATTEMPTS = 3;
/** A look at a class's queue answers this many times the machines a claim asks for; the rest are kept for the next claims. */
const CANDIDATES_PER_CLAIM = 4;
/** How long machines a look found are kept as a class's next candidates, ms: never older than a waiting claim's own poll. */
const CANDIDATES_MS = CLAIM_POLL_MS;

/** `operations.worker` of an operation this MMA runs. */
const workerOf = (agent: MmaAgentPrincipal) => `${agentWorkerPrefix(agent.id)}${agent.host}`;

export function createMmaProtocolService({
  db,
  events,
  store,
  cloud,
  settings,
  log,
}: {
  db: Db;
  events: TaskEvents;
  /** Where a remote CreateJumpStartAmi's image is made. */
  cloud: CloudProvider;
  /** Where backup files are kept (the simulated agent's store). */
  store: ObjectStore;
  settings: MmaProtocolSettings;
  log?: Logger;
}): MmaProtocolService {
  const workerStaleMs = (settings.operationLeaseSeconds ?? AGENT_ENGINE_DEFAULTS.staleMs / 1000) * 1000;
  const remoteLease = { leaseMs: (settings.mmaLeaseSeconds ?? MMA_LEASE_S_DEFAULT) * 1000, graceFrom: settings.mmaLeaseGraceFrom ?? DEFAULT_REMOTE_LEASE.graceFrom };
  const finisher = createOperationFinisher({
    db,
    events,
    log,
    report: (msg, err, fields) => log?.warn({ ...fields, err: err instanceof Error ? err.message : String(err) }, msg),
    settings: { batchSize: 64, panicFailures: settings.panicFailures, anomalyFailures: settings.anomalyFailures, anomalyWindowMinutes: settings.anomalyWindowMinutes },
  });

  /**
   * Machines of each class (in-process and remote MMAs apart) that its last look found and no claim has taken yet,
   * oldest work first, and when the look was: the next claims try them before looking again. A look walks the
   * class's whole queue through the start rules (12-20 ms on the scale fleet, where a claim of 64 operations takes
   * 5); a candidate is only a hint, as the claim checks every rule again under its lock.
   */
  const candidates = new Map<string, { machineIds: number[]; at: number }>();

  /**
   * Up to `max` machines of the class that may need the MMA: kept ones from a recent look (`looked` false), else
   * (or when `fresh`) a new look's.
   */
  async function machinesToClaim(agent: MmaAgentPrincipal, max: number, o: { scope: SQL; only: SQL; fresh: boolean }) {
    const key = `${agent.classId}:${agent.inProcess ? 'in-process' : 'remote'}`;
    const kept = candidates.get(key);
    if (!o.fresh && kept && kept.machineIds.length > 0 && Date.now() - kept.at < CANDIDATES_MS) return { machineIds: kept.machineIds.splice(0, max), looked: false };
    const found = await selectMachinesNeedingAgent(db, { staleMs: workerStaleMs, limit: max * CANDIDATES_PER_CLAIM, scope: o.scope, only: o.only, remoteLease });
    candidates.set(key, { machineIds: found.slice(max), at: Date.now() });
    return { machineIds: found.slice(0, max), looked: true };
  }

  /** One look: claims what the class has for this MMA now. */
  async function claimOnce(agent: MmaAgentPrincipal, max: number): Promise<TMmaClaimedOperation[]> {
    // The operation's class (its machine's, fixed at its queueing: a machine never changes class) walks the class's
    // unfinished operations only (operations_unfinished_class_idx); the machine's is what the start rules hold to.
    const only = sql`(o.class_id = ${agent.classId} and m.class_id = ${agent.classId})`;
    const scope = sql`(m.class_id = ${agent.classId} and ${agent.inProcess ? inProcessClass : remoteClass})`;
    const claimFrom = (machineIds: number[]) =>
      claimOperations(db, { machineIds, worker: workerOf(agent), staleMs: workerStaleMs, maxAttempts: MAX_ATTEMPTS, panicFailures: settings.panicFailures, scope, remoteLease });
    const claims: Pick<OperationClaims, 'claimed' | 'ended'> = { claimed: [], ended: [] };
    // Kept candidates first; when they give less than asked (taken meanwhile, or held now), one new look.
    for (let fresh = false; ; fresh = true) {
      const { machineIds, looked } = await machinesToClaim(agent, max - claims.claimed.length, { scope, only, fresh });
      if (machineIds.length > 0) {
        const got = await claimFrom(machineIds);
        claims.claimed.push(...got.claimed);
        claims.ended.push(...got.ended);
      }
      if (looked || claims.claimed.length >= max) break;
    }
    await finisher.afterEnded(claims.ended);
    if (claims.claimed.length === 0) return [];
    const machines = await repo.selectClaimMachines(db, claims.claimed.map((c) => c.operation.machineId));
    const lengths = await repo.selectLogLengths(db, claims.claimed.map((c) => c.operation.id));
    const answered: TMmaClaimedOperation[] = [];
    for (const c of claims.claimed) {
      const row = c.operation;
      const lease = { operationId: row.id, attempt: row.attempts };
      const params = { ...row.params };
      const machine = machines.get(row.machineId)!;
      if (isDeployType(row.typeName) && !isVersionMap(params.versions)) {
        // The target is fixed at the claim, as the simulated agent fixes it at its first attempt.
        params.versions =
          row.typeName === 'TestLatestCode' ? (await latestCodeTarget(db, row.machineId, latestCodeBranch(params))).versions : machine.desiredVersions;
        await mergeOperationParams(db, lease, { versions: params.versions });
      }
      if (row.typeName === 'Backup' && !backupTimeOf(params)) {
        // The backup's time names its files: fixed at the first claim, so that a resumed attempt names them the same.
        params.backupAt = new Date().toISOString();
        await mergeOperationParams(db, lease, { backupAt: params.backupAt });
      }
      answered.push({
        operationId: row.id,
        attempt: row.attempts,
        typeName: row.typeName as TOperationTypeName,
        params,
        remainingMs: Math.round(c.remainingMs),
        resumed: c.resumed,
        machine,
        outputOffset: lengths.get(row.id)?.output ?? 0,
        deployerLogOffset: lengths.get(row.id)?.deployerLog ?? 0,
      });
    }
    await finisher.announce('OperationStarted', answered.map((a) => a.operationId));
    return answered;
  }

  /** The machine of a leased operation (it exists: the operation's row refers to it). */
  const machineOf = async (machineId: number) => (await repo.selectClaimMachines(db, [machineId])).get(machineId)!;

  /** The RUNNING operation `operationId` of this MMA in `attempt` (its class, its lease), else 404 or 409. */
  async function leased(agent: MmaAgentPrincipal, operationId: number, attempt: number) {
    const row = await repo.selectLease(db, operationId);
    if (!row || row.classId !== agent.classId) throw notFound(`Operation ${operationId}`);
    if (row.status !== 'RUNNING' || row.attempts !== attempt || !row.worker?.startsWith(agentWorkerPrefix(agent.id))) {
      throw conflict(`The lease of operation ${operationId} (attempt ${attempt}) is lost: it ended, or another attempt runs it; stop it`);
    }
    return row;
  }

  return {
    async claim(agent, { maxOperations, waitSeconds, leases = [], signal, wakeups }) {
      const deadline = Date.now() + Math.min(waitSeconds, settings.mmaClaimWaitMaxSeconds ?? MMA_CLAIM_WAIT_MAX_S) * 1000;
      for (;;) {
        // Its own running operations first, at each look: renewed, they are never stale to its own claim.
        if (leases.length > 0 && !signal?.aborted) await repo.renewLeases(db, leases, agentWorkerPrefix(agent.id), agent.classId);
        const operations = signal?.aborted ? [] : await claimOnce(agent, maxOperations);
        if (operations.length > 0 || signal?.aborted) return { operations };
        const left = deadline - Date.now();
        if (left <= 0) return { operations: [] };
        const wait = Math.min(CLAIM_POLL_MS, left);
        await waitToLookAgain(wait, wakeups, signal);
      }
    },

    async heartbeat(agent, leases) {
      const rows = await repo.renewLeases(db, leases, agentWorkerPrefix(agent.id), agent.classId);
      const renewed = new Map(rows.map((r) => [r.id, r]));
      return {
        renewed: [...renewed.keys()],
        lost: leases.map((l) => l.operationId).filter((id) => !renewed.has(id)),
        cancel: rows.filter((r) => r.decision === 'CANCEL').map((r) => ({ operationId: r.id, by: r.decidedBy ?? 'an operator' })),
      };
    },

    async append(agent, operationId, body) {
      const { attempt, stream, offset, text } = body;
      const result = await repo.appendAt(db, { operationId, attempt, workerPrefix: agentWorkerPrefix(agent.id), classId: agent.classId, stream, offset, text });
      if (result !== 'refused') return { offset: result };
      // Refused: the lease's 404 or 409, else the offset is past the end.
      await leased(agent, operationId, attempt);
      throw conflict(`Offset ${offset} is past the end of the ${stream} of operation ${operationId}: send what comes before it first`);
    },

    async finish(agent, operationId, body) {
      const row = await leased(agent, operationId, body.attempt);
      const { output, deployerLog } = body;
      // A gap is refused before any of the finish's effects (a stream only grows, so the write finds none either).
      if ((output && output.offset > row.outputLength) || (deployerLog && deployerLog.offset > row.deployerLogLength)) {
        throw conflict(`A log's offset is past its end in operation ${operationId}: send what comes before it first`);
      }
      const lease = { operationId, attempt: body.attempt };
      let outcome: OperationOutcome =
        body.status === 'SUCCESS'
          ? { status: 'SUCCESS' }
          : row.decision === 'CANCEL'
            ? cancelledOutcome(row)
            : { status: 'FAILURE', message: body.message || 'The MMA reported a failure', counts: true };
      if (outcome.status === 'SUCCESS' && isDeployType(row.typeName)) {
        const recorded = await recordDeployedState(db, { operationId, machineId: row.machineId, params: row.params });
        if (recorded.error) outcome = { status: 'FAILURE', message: recorded.error, counts: true };
      }
      if (outcome.status === 'SUCCESS' && row.typeName === 'Backup') {
        const missing = await missingBackups(db, operationId, await machineOf(row.machineId));
        if (missing.length > 0) outcome = { status: 'FAILURE', message: `The MMA finished without uploading the ${missing.join(', ')} backup file`, counts: true };
      }
      if (outcome.status === 'SUCCESS' && row.typeName === 'PublishSampleData' && !(await sampleDataPublished(db, operationId))) {
        outcome = { status: 'FAILURE', message: 'The MMA finished without uploading the sample data file', counts: true };
      }
      if (outcome.status === 'SUCCESS' && row.typeName === 'CreateJumpStartAmi') {
        const wrong = await registerOperationImage({ db, cloud }, { machineId: row.machineId, params: row.params });
        if (wrong) outcome = { status: 'FAILURE', message: wrong, counts: true };
      }
      const ended = await finisher.finish({
        lease,
        outcome,
        ...(output && { output: output.text, outputOffset: output.offset }),
        ...(deployerLog && { deployerLog: deployerLog.text, deployerLogOffset: deployerLog.offset }),
      });
      if (!ended) throw conflict(`The lease of operation ${operationId} (attempt ${body.attempt}) is lost: it ended elsewhere`);
      return { operationId, status: ended.status };
    },

    async uploadBackupFile(agent, { operationId, attempt, software, bytes }) {
      const row = await leased(agent, operationId, attempt);
      return uploadBackupFile({ db, store }, { operation: { id: operationId, ...row }, machine: await machineOf(row.machineId), software, bytes });
    },

    async uploadSampleDataFile(agent, { operationId, attempt, bytes }) {
      const row = await leased(agent, operationId, attempt);
      return uploadSampleDataFile({ db, store }, { operation: { id: operationId, ...row }, machine: await machineOf(row.machineId), bytes });
    },

    async image(agent, { operationId, attempt }) {
      const row = await leased(agent, operationId, attempt);
      return operationImage({ db, cloud }, { operation: { id: operationId, attempt, ...row }, machine: await machineOf(row.machineId) });
    },

    async downloadBackupFile(agent, { operationId, attempt, software }) {
      const row = await leased(agent, operationId, attempt);
      return downloadBackupFile({ db, store }, { operation: { id: operationId, ...row }, machine: await machineOf(row.machineId), software });
    },

    async report(agent, machineId, body) {
      const machine = await repo.selectReportMachine(db, machineId);
      if (!machine || machine.deleted || machine.classId !== agent.classId) throw notFound(`Machine ${machineId}`);
      let versionStateWritten = false;
      if (body.installedVersions) {
        const recorded = await recordReportedVersions(db, { machineId, installed: body.installedVersions });
        if (recorded.unknown) {
          throw unprocessable(`The catalogue knows no commit for ${recorded.unknown.map((k) => `${k} (${body.installedVersions![k]})`).join(', ')}: nothing was recorded`);
        }
        versionStateWritten = recorded.written;
      }
      const reportedAt = await repo.upsertReport(db, { machineId, agentId: agent.id, ...body });
      return { machineId, reportedAt, versionStateWritten };
    },
  };
}
