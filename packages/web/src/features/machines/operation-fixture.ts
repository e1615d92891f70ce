/** An operation for unit tests: a queued Backup of machine 7 (account 3), with `patch` applied. */
import type { TOperation } from '@fleet/contracts';

export function operation(patch: Partial<TOperation> & { id: number }): TOperation {
  return {
    machineId: 7,
    accountId: 3,
    machineName: 'acme-01',
    accountName: 'Acme',
    machineClassId: 1,
    machineClassName: 'Experimental',
    type: { name: 'Backup', description: 'Back up' },
    typeName: 'Backup',
    operationTypeName: 'Backup',
    operationTypeDescription: 'Back up',
    timestamp: '2024-05-01T10:00:00.000Z',
    notBefore: null,
    startTime: null,
    finishTime: null,
    runningTime: null,
    user: 'operator',
    status: null,
    pending: false,
    decision: null,
    decidedBy: null,
    params: {},
    timeout: 3600,
    failCounter: 0,
    operationMode: 0,
    activityId: 1,
    waiting: { reason: 'starting', message: 'Starting: the agent takes it within seconds' },
    ...patch,
  };
}
