/**
 * Creating machines against a real PostgreSQL, without the task engine (spec 2
 * §2.3 Create Machine, §7; DESIGN §6 instance policies): the machines an
 * InstancePerSiteMaster account may still create, a new site master with its
 * configuration and its CreateMachine task, validation, and an add-on account
 * that has none. The fixture is `test/machine-fixtures.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { TMachine, TTask } from '@fleet/contracts';
import { call, ids, lastActivity, ok, useMachineFixture } from '../../../test/machine-fixtures.js';

useMachineFixture();

describe('creatable and new machines', () => {
  it('lists the launcher and one site master per site of an InstancePerSiteMaster account', async () => {
    const list = await ok<unknown[]>('GET', `/accounts/${ids.policy}/creatable-machines`);
    expect(list).toEqual([
      { name: 'policyfix-launcher', isLauncher: true, isSiteMaster: false, siteId: null, siteName: null },
      { name: 'policyfix-site-a', isLauncher: false, isSiteMaster: true, siteId: ids.siteA, siteName: 'Site A' },
      { name: 'policyfix-site-b', isLauncher: false, isSiteMaster: true, siteId: ids.siteB, siteName: 'Site B' },
    ]);
    expect(await ok('GET', `/accounts/${ids.addOn}/creatable-machines`)).toEqual([]);
  });

  it('creates a site master with its config and queues CreateMachine; it is no longer creatable (409)', async () => {
    const body = { isLauncher: false, siteId: ids.siteB, accountId: ids.policy };
    const { machine, task } = await ok<{ machine: TMachine; task: TTask }>('POST', `/accounts/${ids.policy}/machines`, 'operator', body);
    expect(machine).toMatchObject({ name: 'policyfix-site-b', classId: 1, isSiteMaster: true, isLauncher: false, siteId: ids.siteB, siteName: 'Site B', instance: null, siteMasterUrl: 'http://site-b-policyfix.fleet.example.net:8443' });
    expect(machine.cloudInstanceType).toMatchObject({ id: 2 });
    // Its component configuration is the catalogue's defaults for it.
    expect(machine.config.componentConfig).toMatchObject({ 'siteMaster.siteName': 'Site B', 'siteMaster.port': 8443, 'rabbitMq.virtualHost': 'policyfix' });
    expect(Object.keys(machine.config.componentConfig).some((k) => k.startsWith('launcher.'))).toBe(false);
    expect(task).toMatchObject({ type: 'CreateMachine', status: 'New', machineId: machine.id, description: 'Create machine policyfix-site-b' });
    expect((await lastActivity('CreateMachine')).metadata.params).toMatchObject({ machineId: machine.id, siteId: ids.siteB });
    const again = await call('POST', `/accounts/${ids.policy}/machines`, 'operator', body);
    expect(again.statusCode).toBe(409);
    const list = await ok<{ name: string }[]>('GET', `/accounts/${ids.policy}/creatable-machines`);
    expect(list.map((c) => c.name)).toEqual(['policyfix-launcher', 'policyfix-site-a']);
  });

  it.each([
    [{ isLauncher: true, siteId: null, accountId: 1 }, 'accountId'],
    [{ isLauncher: 'no', siteId: null }, 'isLauncher'],
    [{ isLauncher: false, siteId: 999999 }, 'siteId'],
  ])('answers 400 naming the field for %o', async (body, field) => {
    const res = await call('POST', `/accounts/${ids.policy}/machines`, 'operator', { accountId: ids.policy, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].propertyName).toBe(field);
  });

  it('creates nothing for an add-on account (409)', async () => {
    const res = await call('POST', `/accounts/${ids.addOn}/machines`, 'operator', { isLauncher: true, siteId: null, accountId: ids.addOn });
    expect(res.statusCode).toBe(409);
  });
});

