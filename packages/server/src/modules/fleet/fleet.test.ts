import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import type { TMachineStats } from '@fleet/contracts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const cp = await insertAccount(t.database.db, { name: 'Stats CP', classId: 5 });
  await insertMachine(t.database.db, { accountId: cp.id, classId: 5, needsAdmin: true });
});
afterAll(() => t.close());

const stats = async (as: string) => (await t.call({ method: 'GET', url: '/machines/stats', as })).json() as TMachineStats;

describe('GET /machines/stats', () => {
  it('counts per class and does not count Customer Production for users without the group', async () => {
    const admin = await stats('admin');
    const operator = await stats('operator');
    expect(admin.classStats.map((c) => c.class.name)).toEqual([
      'Experimental',
      'Internal Testing',
      'Internal Production',
      'Customer Staging',
      'Customer Production',
      'On Premise',
    ]);
    expect(operator.classStats.map((c) => c.class.id)).not.toContain(5);
    expect(admin.classStats.find((c) => c.class.id === 5)!.total).toBeGreaterThanOrEqual(1);
    expect(admin.needsAdmin).toBeGreaterThan(operator.needsAdmin);
    expect(admin.totalCost).toBeGreaterThanOrEqual(admin.runningCost);
  });

  it('needs a token', async () => {
    expect((await t.call({ method: 'GET', url: '/machines/stats' })).statusCode).toBe(401);
  });
});

describe('GET /mma/stats and /mma/classes', () => {
  it('counts MMA instances on standby', async () => {
    const res = await t.call({ method: 'GET', url: '/mma/stats', as: 'viewer' });
    expect(res.statusCode).toBe(200);
    const classes = (await t.call({ method: 'GET', url: '/mma/classes', as: 'viewer' })).json();
    const standby = classes.filter((c: { mmaInstance: { standby: boolean } | null }) => c.mmaInstance?.standby).length;
    expect(res.json()).toEqual({ standby });
  });
});
