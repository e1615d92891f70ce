/**
 * The operation queue (DESIGN §12 Approval) against a real PostgreSQL: which
 * operations wait for approval, which types are refused, the NOTIFY on commit
 * and the TOperation it answers.
 */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { OPERATION_MODE_ANOMALY, OPERATION_MODE_STABLE } from '@fleet/contracts';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { createOperationQueue, NotManualOperationTypeError, UnknownOperationTypeError, type OperationMachine } from './queue.js';
import { OPERATION_QUEUED_CHANNEL } from './operations.repository.js';
import { ensureOperationTypes, OPERATION_TYPES } from '../../seed/catalogue.js';

const database = useTestDatabase({ max: 4 });
const announced: number[] = [];
const queue = createOperationQueue({ announce: (queued) => announced.push(...queued.map((q) => q.operation.id)) });

async function machineOf(classId: number, operationMode = OPERATION_MODE_STABLE): Promise<OperationMachine> {
  const account = await insertAccount(database.db, { name: `Queue ${classId}`, classId });
  const m = await insertMachine(database.db, { accountId: account.id, classId, operationMode });
  return { id: m.id, accountId: account.id, classId, accountClassId: classId, operationMode, failCounter: 0 };
}

describe('enqueue', () => {
  it('queues an operation with its type, user, params and activity, not pending on a non-production class', async () => {
    const machine = await machineOf(4);
    const [queued] = await database.db.transaction((tx) =>
      queue.enqueue(tx, [{ machine, typeName: 'UpdateSoftware', user: 'admin', activityId: null, params: { a: 1 } }]),
    );
    expect(queued!.operation).toMatchObject({
      machineId: machine.id,
      typeName: 'UpdateSoftware',
      type: { name: 'UpdateSoftware', description: expect.stringContaining('Deploy') },
      machineClassName: 'Customer Staging',
      user: 'admin',
      status: null,
      pending: false,
      decision: null,
      params: { a: 1 },
      timeout: 1800,
      startTime: null,
      runningTime: null,
    });
    expect(queued!.classIds).toEqual([4, 4]);
  });

  it('UpdateSoftware and RestoreBackup wait for approval on a production class; Backup does not', async () => {
    const machine = await machineOf(5);
    const queued = await database.db.transaction((tx) =>
      queue.enqueue(tx, ['UpdateSoftware', 'RestoreBackup', 'Backup'].map((typeName) => ({ machine, typeName: typeName as 'Backup', user: 'admin', activityId: null }))),
    );
    expect(queued.map((q) => [q.operation.typeName, q.operation.pending])).toEqual([
      ['UpdateSoftware', true],
      ['RestoreBackup', true],
      ['Backup', false],
    ]);
  });

  it('any operation on a machine in ANOMALY mode waits for approval', async () => {
    const machine = await machineOf(1, OPERATION_MODE_ANOMALY);
    const [queued] = await database.db.transaction((tx) => queue.enqueue(tx, [{ machine, typeName: 'SmokeTest', user: 'admin', activityId: null }]));
    expect(queued!.operation.pending).toBe(true);
  });

  it('refuses a type that cannot be manual when manualOnly, and a class without the type; nothing is written', async () => {
    const machine = await machineOf(1);
    await expect(
      database.db.transaction((tx) => queue.enqueue(tx, [{ machine, typeName: 'RestoreBackup', user: 'admin', activityId: null, manualOnly: true }])),
    ).rejects.toBeInstanceOf(NotManualOperationTypeError);
    const addOn = { ...machine, classId: 200 };
    await expect(
      database.db.transaction((tx) => queue.enqueue(tx, [{ machine: addOn, typeName: 'Backup', user: 'admin', activityId: null }])),
    ).rejects.toBeInstanceOf(UnknownOperationTypeError);
    const { rows } = await database.pool.query('select count(*)::int as n from operations where machine_id = $1', [machine.id]);
    expect(rows[0].n).toBe(0);
  });

  it('notifies the agents only when the transaction commits', async () => {
    const machine = await machineOf(1);
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${OPERATION_QUEUED_CHANNEL}`);
    await database.db
      .transaction(async (tx) => {
        await queue.enqueue(tx, [{ machine, typeName: 'Backup', user: 'admin', activityId: null }]);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await database.db.transaction((tx) => queue.enqueue(tx, [{ machine, typeName: 'SmokeTest', user: 'admin', activityId: null }]));
    await new Promise((r) => setTimeout(r, 200));
    await listener.end();
    expect(heard).toEqual([String(machine.id)]);
  });
});

describe('ensureOperationTypes (run at every start)', () => {
  it('gives a database seeded before the operation types existed every type of every class with machines, once', async () => {
    const count = async () => (await database.pool.query('select count(*)::int as n from operation_types')).rows[0].n as number;
    const seeded = await count();
    expect(seeded).toBe(6 * OPERATION_TYPES.length);
    await database.pool.query(`delete from operation_types where id not in (select type_id from operations) and machine_class_id = 3`);
    expect(await count()).toBeLessThan(seeded);
    await ensureOperationTypes(database.db);
    await ensureOperationTypes(database.db);
    expect(await count()).toBe(seeded);
  });
});
