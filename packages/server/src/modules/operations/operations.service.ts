/**
 * The operations calls (spec 2 §2.3 dialogs, §2.6 Operations viewer, §7 Machines
 * and Operations, §8; DESIGN §12; the lead's OPS-SEMANTICS): queueing the
 * operation each dialog names, approving or cancelling one, resetting a
 * machine's last one, reading pages and logs, the types Queue Operations offers,
 * the simulated site server status and the trail of an audit activity.
 *
 * Rules:
 * - Visibility is the machines' (DESIGN §5): a machine of class Customer
 *   Production, or of an account of that class, answers 404 like an unknown id
 *   without group CustomerProductionAccess; its operations are left out of lists.
 * - Every mutation is audited in its transaction; each queued operation carries
 *   the id of that activity (`activityId`). OperationQueued is emitted after the
 *   commit (also after a decision: the operation, changed, is still queued);
 *   OperationFinished after a reset.
 * - Queue Operations takes only types that can be manual for the machine's class
 *   (422 naming `operations` otherwise); each dialog queues its own type with its
 *   params. Create AMI needs a known IRMN version, Test Latest Code a branch whose
 *   repository is not missing (422 with the reason the console shows).
 * - PROCEED only while pending; CANCEL until the operation finished (a running
 *   one stops at its agent's next heartbeat, within 5 s: issue 27); 409
 *   otherwise (also a second CANCEL). Reset last operation with none unfinished: 409.
 *
 * Locks: queueing locks the machine row (like the machine actions), so two
 * mutations of one machine run one after the other. Decisions and resets lock
 * only the operation row (a conditional update, a `for update` read), which is
 * what the agent changes when it starts or ends one.
 */
import type {
  TActivityTrail,
  TCreateAmiRequest,
  TForceBackupRequest,
  TForcePopulateRequest,
  TOperation,
  TOperationDecision,
  TOperationLog,
  TOperationsPage,
  TOperationListResponse,
  TOperationTypeName,
  TOperationTypesResponse,
  TQueuedOperationsResponse,
  TRestoreBackupRequest,
  TSiteServerStatus,
  TTestLatestCodeRequest,
  TPublishSampleDataRequest,
  TAuditAction,
  TOperationDecisionsResponse,
  TPendingApprovals,
} from '@fleet/contracts';
import { ZCreateAmiRequest, ZForcePopulateRequest, ZRestoreBackupRequest, ZTestLatestCodeRequest, type ZOperationsQuery } from '@fleet/contracts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { sharedRead } from '../../lib/coalesce.js';
import { conflict, HttpProblem, notFound, unprocessable } from '../../lib/problem.js';
import { jsonText } from '../../lib/json-text.js';
import type { AuditService } from '../audit/audit.service.js';
import { findVisibleMachine, type VisibleMachine } from '../machines/machines.repository.js';
import type { TaskEvents } from '../../engine/push/events.js';
import {
  NotManualOperationTypeError,
  operationMachine,
  UnknownOperationTypeError,
  type OperationQueue,
  type OperationRequest,
  type QueuedOperation,
} from '../../engine/operations/queue.js';
import { selectOperationsByIds } from '../../engine/operations/operations.repository.js';
import { selectHoldingWave } from '../../engine/rollouts/approvals.repository.js';
import * as repo from './operations.repository.js';
import { siteServerStatus } from './site-server-status.js';

type ByMachine = { principal: Principal; machineId: number };
type Page = { startIndex: number; limit: number };

export interface OperationService {
  /** Queue Operations (spec 2 §2.3): one operation per distinct type name, each manual for the class. */
  queueOperations(o: ByMachine & { operations: TOperationTypeName[] }): Promise<TQueuedOperationsResponse>;
  /** Manual Backup: a Backup (category manual) not before now + `timeToBackup` minutes. */
  forceBackup(o: ByMachine & { body: TForceBackupRequest }): Promise<TQueuedOperationsResponse>;
  forcePopulate(o: ByMachine & { body: TForcePopulateRequest }): Promise<TQueuedOperationsResponse>;
  publishSampleData(o: ByMachine & { body: TPublishSampleDataRequest }): Promise<TQueuedOperationsResponse>;
  /** Create Jump-start AMI; 422 for an unknown IRMN version. */
  createAmi(o: ByMachine & { body: TCreateAmiRequest }): Promise<TQueuedOperationsResponse>;
  /** Restore Backup: the chosen file names travel in params (the agent checks them against the object store). */
  restoreBackup(o: ByMachine & { body: TRestoreBackupRequest }): Promise<TQueuedOperationsResponse>;
  /** Test Latest Code; 422 for an unknown branch or one whose repository is missing. */
  testLatestCode(o: ByMachine & { body: TTestLatestCodeRequest }): Promise<TQueuedOperationsResponse>;
  /** Ends the machine's latest unfinished operation FAILURE; answers it. 409 when it has none. */
  resetLastOperation(o: ByMachine): Promise<TQueuedOperationsResponse>;
  /** PROCEED or CANCEL (OPS-SEMANTICS); 404 for an operation of another machine, 409 when its state refuses. */
  decide(o: ByMachine & { operationId: number; decision: TOperationDecision }): Promise<TOperation>;
  machineOperations(o: ByMachine & { query: Page }): Promise<TOperationListResponse>;
  /** The Operations viewer's page; `query` as the route validated it. */
  list(o: { principal: Principal; query: z.output<typeof ZOperationsQuery> }): Promise<TOperationsPage>;
  log(o: { principal: Principal; operationId: number; log: 'output' | 'deployerLog' }): Promise<TOperationLog>;
  /**
   * One decision for many operations (the approvals inbox): each decided and
   * audited on its own as {@link OperationService.decide} does; the ones it
   * refuses (unknown or hidden, not pending for PROCEED, finished or already cancelled for CANCEL)
   * are answered with the reason instead of failing the others.
   */
  decideMany(o: { principal: Principal; decision: TOperationDecision; operationIds: number[] }): Promise<TOperationDecisionsResponse>;
  /** How many visible operations wait for approval. */
  pendingCount(o: { principal: Principal }): Promise<TPendingApprovals>;
  /** One visible operation, with what it waits for; 404 when unknown or hidden. */
  get(o: { principal: Principal; operationId: number }): Promise<TOperation>;
  /** The types Queue Operations offers for the machine: its class's types that can be manual. */
  operationTypes(o: ByMachine): Promise<TOperationTypesResponse>;
  siteServerStatus(o: ByMachine): Promise<TSiteServerStatus>;
  /** The tasks and operations an activity caused; 404 when unknown or hidden. */
  trail(o: { principal: Principal; activityId: number }): Promise<TActivityTrail>;
}

/** What one queueing call asks: its audit action and params, and the operations (without machine, user, activity). */
interface QueueCall {
  action: TAuditAction;
  auditParams?: Record<string, unknown>;
  requests: Omit<OperationRequest, 'machine' | 'user' | 'activityId'>[];
  /** Checks against the catalogues, inside the transaction, before anything is written. */
  check?: (tx: DbOrTx) => Promise<void>;
}

export function createOperationService({
  db,
  audit,
  operations,
  events,
}: {
  db: Db;
  audit: AuditService;
  operations: OperationQueue;
  events: TaskEvents;
}): OperationService {
  /** A page as JSON text; the consoles polling the same page share each read (lib/coalesce.ts). */
  const operationPageText = sharedRead(repo.selectOperationPageText, db);

  async function mustFind(tx: DbOrTx, principal: Principal, id: number, forUpdate = false): Promise<VisibleMachine> {
    const found = await findVisibleMachine(tx, { id, hiddenClassIds: hiddenClassIds(principal), forUpdate });
    if (!found) throw notFound(`Machine ${id}`);
    return found;
  }

  /** Queues the call's operations on the machine, audited; announces them after the commit. */
  async function queue({ principal, machineId }: ByMachine, call: QueueCall): Promise<TQueuedOperationsResponse> {
    let queued: QueuedOperation[];
    try {
      queued = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId, true);
        await call.check?.(tx);
        const activityId = await audit.record(tx, {
          action: call.action,
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, ...call.auditParams },
        });
        const machine = operationMachine(found);
        return operations.enqueue(
          tx,
          call.requests.map((r) => ({ ...r, machine, user: principal.username, activityId })),
        );
      });
    } catch (error) {
      if (error instanceof NotManualOperationTypeError || error instanceof UnknownOperationTypeError) {
        throw new HttpProblem(422, 'Unprocessable Content', error.message, [
          { propertyName: 'operations', errorMessage: error.message, attemptedValue: error.typeName },
        ]);
      }
      throw error;
    }
    operations.announce(queued);
    return { operations: queued.map((q) => q.operation) };
  }

  const service: OperationService = {
    queueOperations: ({ operations: names, ...by }) => {
      const distinct = [...new Set(names)];
      return queue(by, {
        action: 'QueueOperations',
        auditParams: { operations: distinct },
        requests: distinct.map((typeName) => ({ typeName, manualOnly: true })),
      });
    },

    forceBackup: ({ body, ...by }) =>
      queue(by, {
        action: 'ForceBackup',
        auditParams: { timeToBackup: body.timeToBackup },
        requests: [
          {
            typeName: 'Backup',
            params: { category: 'manual', timeToBackup: body.timeToBackup },
            notBefore: body.timeToBackup > 0 ? new Date(Date.now() + body.timeToBackup * 60_000) : null,
          },
        ],
      }),

    forcePopulate: ({ body, ...by }) => {
      const params = ZForcePopulateRequest.parse(body);
      return queue(by, { action: 'ForcePopulate', auditParams: params, requests: [{ typeName: 'Populate', params }] });
    },

    publishSampleData: ({ body, ...by }) =>
      queue(by, {
        action: 'PublishSampleData',
        auditParams: { fileName: body.fileName },
        requests: [{ typeName: 'PublishSampleData', params: { fileName: body.fileName } }],
      }),

    createAmi: ({ body, ...by }) => {
      const params = ZCreateAmiRequest.parse(body);
      return queue(by, {
        action: 'CreateJumpStartAmi',
        auditParams: params,
        requests: [{ typeName: 'CreateJumpStartAmi', params }],
        check: async (tx) => {
          if (!(await repo.irmnVersionExists(tx, params.irmnVersion))) throw unprocessable(`IRMN version ${params.irmnVersion} does not exist`);
        },
      });
    },

    restoreBackup: ({ body, ...by }) => {
      const params = ZRestoreBackupRequest.parse(body);
      return queue(by, { action: 'RestoreBackup', auditParams: params, requests: [{ typeName: 'RestoreBackup', params }] });
    },

    testLatestCode: ({ body, ...by }) => {
      const { branch } = ZTestLatestCodeRequest.parse(body);
      return queue(by, {
        action: 'TestLatestCode',
        auditParams: { branch },
        requests: [{ typeName: 'TestLatestCode', params: { branch } }],
        check: async (tx) => {
          const found = await repo.selectBranches(tx, branch);
          if (found.length === 0) throw unprocessable(`Branch ${branch} does not exist`);
          if (found.every((b) => b.repoMissing)) throw unprocessable(`The repository of branch ${branch} (${found[0]!.repo}) is missing`);
        },
      });
    },

    async resetLastOperation({ principal, machineId }) {
      const { operation, classIds } = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId);
        const reset = await repo.resetLastOperation(tx, { machineId, user: principal.username });
        if (!reset) throw conflict('The machine has no queued, pending or running operation');
        await audit.record(tx, {
          action: 'ResetLastOperation',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, operationId: reset.id },
          changes: [{ entityName: 'Operation', propertyName: 'status', oldValue: reset.status, newValue: 'FAILURE' }],
        });
        const [op] = await selectOperationsByIds(tx, [reset.id]);
        return { operation: op!, classIds: [found.machine.classId, found.account.classId] };
      });
      events.emit({ name: 'OperationFinished', operation, classIds });
      return { operations: [operation] };
    },

    async decide({ principal, machineId, operationId, decision }) {
      const queued = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId);
        const before = await repo.findMachineOperation(tx, { machineId, operationId });
        if (!before) throw notFound(`Operation ${operationId} of machine ${machineId}`);
        // A rollout's wave asks for one approval of all its deploys (engine/rollouts/approvals.ts): no Proceed one by one.
        const holding = decision === 'PROCEED' ? await selectHoldingWave(tx, operationId) : null;
        if (holding) {
          throw conflict(
            `Operation ${operationId} waits for the approval of wave ${holding.wave + 1} of rollout ${holding.rolloutId}: approve the wave on the rollout page`,
          );
        }
        if (!(await repo.decideOperation(tx, { machineId, operationId, decision, user: principal.username }))) {
          throw conflict(
            decision === 'PROCEED'
              ? `Operation ${operationId} is not waiting for approval`
              : before.decision === 'CANCEL' && !before.finishedAt
                ? `Operation ${operationId} is already being cancelled`
                : `Operation ${operationId} has finished; only a queued, pending or running operation can be cancelled`,
          );
        }
        await audit.record(tx, {
          action: decision === 'PROCEED' ? 'ProceedOperation' : 'CancelOperation',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, operationId, decision },
          changes: [
            { entityName: 'Operation', propertyName: 'decision', oldValue: before.decision, newValue: decision },
            ...(before.pending ? [{ entityName: 'Operation', propertyName: 'pending', oldValue: true, newValue: false }] : []),
          ],
        });
        const [op] = await selectOperationsByIds(tx, [operationId]);
        return { operation: op!, classIds: [found.machine.classId, found.account.classId] };
      });
      operations.announce([queued]);
      return queued.operation;
    },

    async machineOperations({ principal, machineId, query }) {
      await mustFind(db, principal, machineId);
      return repo.selectMachineOperations(db, { machineId, ...query });
    },

    list: async ({ principal, query }) => jsonText(await operationPageText({ ...query, hiddenClassIds: hiddenClassIds(principal) })),

    async decideMany({ principal, decision, operationIds }) {
      const decided: TOperation[] = [];
      const refused: TOperationDecisionsResponse['refused'] = [];
      for (const operationId of [...new Set(operationIds)]) {
        const found = await repo.selectVisibleOperation(db, { id: operationId, hiddenClassIds: hiddenClassIds(principal) });
        if (!found) {
          refused.push({ operationId, message: `Operation ${operationId} was not found` });
          continue;
        }
        try {
          decided.push(await service.decide({ principal, machineId: found.machineId, operationId, decision }));
        } catch (error) {
          if (!(error instanceof HttpProblem)) throw error;
          refused.push({ operationId, message: error.detail ?? error.title });
        }
      }
      return { decided, refused };
    },

    pendingCount: async ({ principal }) => ({ count: await repo.countPendingApprovals(db, { hiddenClassIds: hiddenClassIds(principal) }) }),

    async get({ principal, operationId }) {
      const operation = await repo.selectVisibleOperation(db, { id: operationId, hiddenClassIds: hiddenClassIds(principal) });
      if (!operation) throw notFound(`Operation ${operationId}`);
      return operation;
    },

    async log({ principal, operationId, log }) {
      const content = await repo.selectOperationLog(db, {
        id: operationId,
        hiddenClassIds: hiddenClassIds(principal),
        log: log === 'output' ? 'output' : 'deployer_log',
      });
      if (content === undefined) throw notFound(`Operation ${operationId}`);
      return { operationId, content };
    },

    async operationTypes({ principal, machineId }) {
      const found = await mustFind(db, principal, machineId);
      return repo.selectManualOperationTypes(db, found.machine.classId);
    },

    async siteServerStatus({ principal, machineId }) {
      const found = await mustFind(db, principal, machineId);
      const facts = await repo.selectSiteServerFacts(db, machineId);
      return siteServerStatus({
        machineId,
        needsAdmin: found.machine.needsAdmin,
        instanceStatus: facts.instanceStatus,
        lastFinishedStatus: facts.lastFinished?.status ?? null,
        remote: facts.remote,
        reported: facts.reported,
      });
    },

    async trail({ principal, activityId }) {
      const trail = await repo.selectTrail(db, { activityId, hiddenClassIds: hiddenClassIds(principal) });
      if (!trail) throw notFound(`Activity ${activityId}`);
      return trail;
    },
  };
  return service;
}
