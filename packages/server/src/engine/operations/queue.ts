/**
 * Queueing operations of the machine management agent (DESIGN §12): how the API,
 * the desired-state controller, the scheduler and the agent itself hand work to
 * the agent. Mirrors the task queue (`../tasks/queue.ts`).
 *
 * Use, in a mutation:
 * ```ts
 * const queued = await db.transaction(async (tx) => {
 *   const activityId = await audit.record(tx, …);
 *   return operationQueue.enqueue(tx, [{ machine, typeName: 'Backup', user, activityId }]);
 * });
 * operationQueue.announce(queued); // OperationQueued events, after the commit
 * ```
 *
 * `enqueue` decides whether each operation waits for approval (DESIGN §12
 * Approval): UpdateSoftware and RestoreBackup on a class with `isProduction`, and
 * any operation on a machine in operation mode ANOMALY; a rollout's wave asks
 * for its own approval, or waives the class's ({@link OperationRequest.approval}). It refuses a type the
 * machine's class does not have ({@link UnknownOperationTypeError}) and, with
 * `manualOnly`, a type that cannot be manual for the class
 * ({@link NotManualOperationTypeError}); the caller answers 422.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { OPERATION_MODE_ANOMALY, type TOperation, type TOperationTypeName } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { mmaClasses, operationTypes } from '../../db/schema.js';
import { insertOperations, selectOperationsByIds } from './operations.repository.js';

/** Operation types that wait for approval on a production class (DESIGN §12). */
export const APPROVAL_ON_PRODUCTION: readonly TOperationTypeName[] = ['UpdateSoftware', 'RestoreBackup'];

/** The machine an operation is for, as queueing needs it. */
export interface OperationMachine {
  id: number;
  accountId: number;
  classId: number;
  /** The account's class: with the machine's, it decides who may see the operation's events. */
  accountClassId: number;
  operationMode: number;
  failCounter: number;
}

/** The {@link OperationMachine} of a machine row and its account (as `findVisibleMachine` answers them). */
export function operationMachine({
  machine,
  account,
}: {
  machine: Omit<OperationMachine, 'accountClassId'>;
  account: { classId: number };
}): OperationMachine {
  return {
    id: machine.id,
    accountId: machine.accountId,
    classId: machine.classId,
    accountClassId: account.classId,
    operationMode: machine.operationMode,
    failCounter: machine.failCounter,
  };
}

export interface OperationRequest {
  machine: OperationMachine;
  typeName: TOperationTypeName;
  /** Who queued it: a username, or `MMA`, `Scheduler`, `Updater`. */
  user: string;
  /** The audit activity that caused it (DESIGN §12 one trail). */
  activityId: number | null;
  /** The dialog's parameters (altString, fileName, branch, backup files, …). */
  params?: Record<string, unknown>;
  /** Not before this time (a delayed forced backup). */
  notBefore?: Date | null;
  /** Refuse types that cannot be manual for the class (Queue Operations, spec 2 §5). */
  manualOnly?: boolean;
  /**
   * A rollout's wave this operation deploys (the deploy controller sets it;
   * `engine/rollouts/approvals.ts`): `required`, it waits for the wave's
   * approval whatever the class; `granted`, the wave was approved (or its
   * rollout's first wave was, with firstWaveOnly), so the production class's
   * own approval is not asked again. ANOMALY mode holds it either way.
   */
  approval?: 'required' | 'granted';
}

export interface QueuedOperation {
  operation: TOperation;
  /** The machine's class id and its account's class id (event visibility, DESIGN §5). */
  classIds: number[];
}

/** The machine's class has no operation type of this name. */
export class UnknownOperationTypeError extends Error {
  constructor(readonly typeName: string, readonly classId: number) {
    super(`Operation type ${typeName} does not exist for class ${classId}`);
  }
}

/** The operation type cannot be queued by hand for the machine's class. */
export class NotManualOperationTypeError extends Error {
  constructor(readonly typeName: string, readonly classId: number) {
    super(`Operation type ${typeName} cannot be queued manually for this machine's class`);
  }
}

/** Where OperationQueued events go (the push channel's emitter). */
export type OperationAnnounce = (queued: QueuedOperation[]) => void;

export interface OperationQueue {
  /** Inserts queued operations inside `tx`; agents hear of them when it commits. */
  enqueue(tx: DbOrTx, requests: OperationRequest[]): Promise<QueuedOperation[]>;
  /** Emits OperationQueued for each operation; call after the commit. */
  announce: OperationAnnounce;
}

export function createOperationQueue({ announce }: { announce: OperationAnnounce }): OperationQueue {
  return {
    async enqueue(tx, requests) {
      if (requests.length === 0) return [];
      const classIds = [...new Set(requests.map((r) => r.machine.classId))];
      const names = [...new Set(requests.map((r) => r.typeName))];
      const types = await tx
        .select({ type: operationTypes, isProduction: mmaClasses.isProduction })
        .from(operationTypes)
        .innerJoin(mmaClasses, eq(mmaClasses.id, operationTypes.machineClassId))
        .where(and(inArray(operationTypes.machineClassId, classIds), inArray(operationTypes.name, names)));
      const typeOf = new Map(types.map((t) => [`${t.type.machineClassId}:${t.type.name}`, t]));
      const rows = requests.map((r) => {
        const found = typeOf.get(`${r.machine.classId}:${r.typeName}`);
        if (!found) throw new UnknownOperationTypeError(r.typeName, r.machine.classId);
        if (r.manualOnly && !found.type.canBeManual) throw new NotManualOperationTypeError(r.typeName, r.machine.classId);
        const pending =
          r.machine.operationMode === OPERATION_MODE_ANOMALY ||
          r.approval === 'required' ||
          (r.approval !== 'granted' && found.isProduction && APPROVAL_ON_PRODUCTION.includes(r.typeName));
        return {
          machineId: r.machine.id,
          accountId: r.machine.accountId,
          classId: r.machine.classId,
          typeId: found.type.id,
          typeName: r.typeName,
          userName: r.user,
          activityId: r.activityId,
          pending,
          params: r.params ?? {},
          timeoutSeconds: found.type.timeoutSeconds,
          operationMode: r.machine.operationMode,
          failCounter: r.machine.failCounter,
          notBefore: r.notBefore ?? null,
        };
      });
      const ids = await insertOperations(tx, rows);
      const byId = new Map((await selectOperationsByIds(tx, ids)).map((o) => [o.id, o]));
      return ids.map((id, i) => ({
        operation: byId.get(id)!,
        classIds: [requests[i]!.machine.classId, requests[i]!.machine.accountClassId],
      }));
    },
    announce,
  };
}
