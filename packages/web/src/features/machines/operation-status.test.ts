/**
 * The machine table's operation rules (spec 2 §2.2, §4; OPS-SEMANTICS): the
 * status column's precedence with its third step (pending, being cancelled,
 * running), the warning row colour, and how operations merge into a machine's
 * row without going back to an earlier state.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MACHINE_UNFINISHED_OPERATIONS, type TMachine, type TOperation, type TTask } from '@fleet/contracts';
import { operation } from './operation-fixture';
import { isNewerOrSameOperation, machineRowClass, machineStatus, mergeMachineOperations, operationStatus } from './machine-status';

const queued = (id: number) => operation({ id });
const pending = (id: number) => operation({ id, pending: true, typeName: 'UpdateSoftware' });
const running = (id: number) => operation({ id, status: 'RUNNING', startTime: '2024-05-01T10:01:00.000Z', runningTime: 5 });
const cancelling = (id: number) => operation({ id, decision: 'CANCEL', decidedBy: 'operator' });
const finished = (id: number, status: 'SUCCESS' | 'FAILURE' = 'SUCCESS') =>
  operation({ id, status, startTime: '2024-05-01T10:01:00.000Z', finishTime: '2024-05-01T10:02:00.000Z', runningTime: 60 });

/** The fields of a machine the status column reads. */
const withPatch = (patch: Partial<TMachine>) => ({ needsAdmin: false, tasks: [], operations: [], operationMode: 0, name: 'acme-01', ...patch }) as TMachine;

const runningTask = { id: 1, status: 'Running', description: 'Start machine acme-01', progress: 40 } as TTask;

describe('machineStatus precedence (spec 2 §2.2)', () => {
  it('Panic first, then a running task, then the operation, then the mode text', () => {
    const ops = [pending(5)];
    expect(machineStatus(withPatch({ needsAdmin: true, tasks: [runningTask], operations: ops })).kind).toBe('panic');
    expect(machineStatus(withPatch({ tasks: [runningTask], operations: ops }))).toMatchObject({ kind: 'task', text: 'Start machine acme-01' });
    expect(machineStatus(withPatch({ operations: ops }))).toMatchObject({ kind: 'operation', state: 'pending', text: 'Pending UpdateSoftware' });
    expect(machineStatus(withPatch({ operationMode: 1 }))).toEqual({ kind: 'mode', text: 'Stable' });
    expect(machineStatus(withPatch({ operationMode: 2 }))).toEqual({ kind: 'mode', text: 'Anomaly' });
    expect(machineStatus(withPatch({ operationMode: 0 }))).toEqual({ kind: 'mode', text: 'Operation Pending' });
  });

  it('shows a pending operation before one being cancelled, and that before a running one', () => {
    expect(operationStatus([running(1), cancelling(2), pending(3)])).toMatchObject({ state: 'pending', operation: { id: 3 } });
    expect(operationStatus([running(1), cancelling(2)])).toMatchObject({ state: 'cancelling', text: 'Cancelling Backup', operation: { id: 2 } });
    expect(operationStatus([running(1), queued(2)])).toMatchObject({ state: 'running', text: 'Running Backup', operation: { id: 1 } });
  });

  it('takes the newest pending operation whatever the order of the list', () => {
    expect(operationStatus([pending(3), pending(9), pending(4)])?.operation.id).toBe(9);
  });

  it('leaves the column to the mode when operations are only queued or finished', () => {
    expect(operationStatus([queued(4), finished(3), finished(2, 'FAILURE')])).toBeUndefined();
    // A pending one that was cancelled is being cancelled, not pending; proceeded it is queued.
    expect(operationStatus([operation({ id: 1, pending: false, decision: 'PROCEED' })])).toBeUndefined();
    expect(operationStatus([operation({ id: 1, pending: true, decision: 'CANCEL' })])?.state).toBe('cancelling');
    // Ended by the agent after CANCEL: no longer being cancelled.
    expect(operationStatus([{ ...finished(1, 'FAILURE'), decision: 'CANCEL' }])).toBeUndefined();
  });
});

describe('machineRowClass (spec 2 §2.2 row colours)', () => {
  it('error when it needs admin attention, warning when an operation is pending, else none', () => {
    expect(machineRowClass({ needsAdmin: true, operations: [pending(1)] })).toBe('machine-row-error');
    expect(machineRowClass({ needsAdmin: false, operations: [finished(2), pending(1)] })).toBe('machine-row-warning');
    expect(machineRowClass({ needsAdmin: false, operations: [running(1), cancelling(2), queued(3)] })).toBe('');
  });
});

describe('mergeMachineOperations', () => {
  it('adds a new operation on top of the unfinished ones, finished ones after, at most the recent count', () => {
    const ops = [running(4), finished(3), finished(2), finished(1)];
    const merged = mergeMachineOperations(ops, queued(5));
    expect(merged.map((o) => o.id)).toEqual([5, 4, 3, 2, 1]);
    expect(mergeMachineOperations(merged, queued(6)).map((o) => o.id)).toEqual([6, 5, 4, 3, 2]);
    expect(mergeMachineOperations(merged, queued(6))).toHaveLength(MACHINE_UNFINISHED_OPERATIONS);
  });

  it('moves an operation that finished below the unfinished ones', () => {
    const merged = mergeMachineOperations([running(5), queued(4)], finished(5));
    expect(merged.map((o) => [o.id, o.status])).toEqual([
      [4, null],
      [5, 'SUCCESS'],
    ]);
  });

  it('never goes back: a late Started after Finished, or a late Queued after a decision, is ignored', () => {
    expect(mergeMachineOperations([finished(5)], running(5))[0]!.status).toBe('SUCCESS');
    const proceeded = operation({ id: 6, pending: false, decision: 'PROCEED' });
    expect(mergeMachineOperations([proceeded], pending(6))[0]!.decision).toBe('PROCEED');
  });

  it('for any order of events of one operation, the row ends at its latest state', () => {
    const life = [pending(8), operation({ id: 8, decision: 'PROCEED' }), running(8), finished(8, 'FAILURE')];
    fc.assert(
      fc.property(fc.shuffledSubarray(life, { minLength: life.length, maxLength: life.length }), (events) => {
        const row = events.reduce<TOperation[]>((ops, e) => mergeMachineOperations(ops, e), []);
        expect(row).toHaveLength(1);
        expect(row[0]!.status).toBe('FAILURE');
      }),
    );
  });

  it('isNewerOrSameOperation: the same state again is accepted (a repeated event changes nothing)', () => {
    expect(isNewerOrSameOperation(running(1), running(1))).toBe(true);
    expect(isNewerOrSameOperation(queued(1), running(1))).toBe(false);
  });
});
