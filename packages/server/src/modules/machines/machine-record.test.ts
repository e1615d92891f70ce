/**
 * A machine's record (spec 2 §3 Machine: "cloudInstances (with timestamp)",
 * "grafanaUrl"): `GET /machines/{id}` answers the machine's latest cloud
 * instances, newest first, and its Grafana dashboard when its account shows
 * its machines in Grafana; the lists of machines carry neither
 * (`machine-record.ts`). A Customer Production machine stays 404 without the group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MACHINE_DETAIL_CLOUD_INSTANCES, type TMachine, type TMachineDetail } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { accountSettings, cloudInstances } from '../../db/schema.js';
import { DEFAULT_GRAFANA_URL } from '../../config.js';
import { machineGrafanaUrl } from './machine-record.js';

let t: TestApp;
const ids = { shown: 0, hidden: 0, noSettings: 0, cp: 0, shownAccount: 0 };

/** `n` instances of the machine, one launched a minute after the other; the last is the active one. */
async function launch(machineId: number, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    machineId,
    cloudId: `i-record-${machineId}-${i}`,
    status: i === n - 1 ? 'running' : 'terminated',
    region: 'us-east-1',
    hostName: `ec2-10-0-0-${i}.compute-1.amazonaws.com`,
    ipAddress: `10.0.0.${i}`,
    privateIpAddress: `172.16.0.${i}`,
    storageSize: 80,
    active: i === n - 1,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
  }));
  await t.database.db.insert(cloudInstances).values(rows);
}

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const shown = await insertAccount(db, { name: 'Grafana Shown', urlFriendlyName: 'grafana-shown', classId: 2 });
  const hidden = await insertAccount(db, { name: 'Grafana Hidden', classId: 2 });
  const bare = await insertAccount(db, { name: 'Grafana Bare', classId: 2 });
  const cp = await insertAccount(db, { name: 'Grafana CP', classId: 5 });
  for (const [accountId, showInGrafana] of [
    [shown.id, true],
    [hidden.id, false],
    [cp.id, true],
  ] as const) {
    await db
      .insert(accountSettings)
      .values({ accountId, machineConfig: { showInGrafana } })
      .onConflictDoUpdate({ target: accountSettings.accountId, set: { machineConfig: { showInGrafana } } });
  }
  await db.execute(sql`delete from account_settings where account_id = ${bare.id}`);
  ids.shownAccount = shown.id;
  ids.shown = (await insertMachine(db, { accountId: shown.id, classId: 2, name: 'grafana shown/launcher' })).id;
  ids.hidden = (await insertMachine(db, { accountId: hidden.id, classId: 2 })).id;
  ids.noSettings = (await insertMachine(db, { accountId: bare.id, classId: 2 })).id;
  ids.cp = (await insertMachine(db, { accountId: cp.id, classId: 5 })).id;
  await launch(ids.shown, MACHINE_DETAIL_CLOUD_INSTANCES + 2);
  await launch(ids.hidden, 1);
});
afterAll(() => t.close());

const machine = async (id: number, as = 'admin') => {
  const res = await t.call({ method: 'GET', url: `/machines/${id}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TMachineDetail;
};

describe('GET /machines/{id}: cloudInstances and grafanaUrl', () => {
  it('carries the latest cloud instances, newest first, each with its launch timestamp and state', async () => {
    const m = await machine(ids.shown, 'operator');
    expect(m.cloudInstances).toHaveLength(MACHINE_DETAIL_CLOUD_INSTANCES);
    expect(m.cloudInstances.map((c) => c.cloudId)).toEqual(
      Array.from({ length: MACHINE_DETAIL_CLOUD_INSTANCES }, (_, i) => `i-record-${ids.shown}-${MACHINE_DETAIL_CLOUD_INSTANCES + 1 - i}`),
    );
    const [newest] = m.cloudInstances;
    expect(Object.keys(newest!).sort()).toEqual(
      ['active', 'cloudId', 'dnsReady', 'hostName', 'id', 'ipAddress', 'privateIpAddress', 'region', 'status', 'storageSize', 'timestamp'].sort(),
    );
    expect(newest).toMatchObject({
      status: 'running',
      active: true,
      ipAddress: `10.0.0.${MACHINE_DETAIL_CLOUD_INSTANCES + 1}`,
      storageSize: 80,
      timestamp: `2026-01-01T00:${String(MACHINE_DETAIL_CLOUD_INSTANCES + 1).padStart(2, '0')}:00.000Z`,
    });
    expect(m.cloudInstances.slice(1).every((c) => c.status === 'terminated' && !c.active)).toBe(true);
    // The active one is the machine's `instance`.
    expect(m.instance).toEqual({ status: 'running', cloudId: newest!.cloudId, ipAddress: newest!.ipAddress });
    expect((await machine(ids.noSettings)).cloudInstances).toEqual([]);
  });

  it("links the machine's Grafana dashboard when its account shows it in Grafana, else null", async () => {
    const m = await machine(ids.shown);
    expect(m.grafanaUrl).toBe(`${DEFAULT_GRAFANA_URL}/d/fleet-machine/fleet-machine?var-account=grafana-shown&var-machine=grafana+shown%2Flauncher`);
    expect(new URL(m.grafanaUrl!).searchParams.get('var-machine')).toBe('grafana shown/launcher');
    expect((await machine(ids.hidden)).grafanaUrl).toBeNull();
    expect((await machine(ids.noSettings)).grafanaUrl).toBeNull();
    // Switching the account's setting changes the link at once.
    await t.database.db.execute(sql`update account_settings set machine_config = '{"showInGrafana": false}' where account_id = ${ids.shownAccount}`);
    expect((await machine(ids.shown)).grafanaUrl).toBeNull();
    await t.database.db.execute(sql`update account_settings set machine_config = '{"showInGrafana": true}' where account_id = ${ids.shownAccount}`);
  });

  it('builds no link without a Grafana (GRAFANA_URL none)', () => {
    const facts = { machineName: 'm', accountUrlName: 'a', showInGrafana: true };
    expect(machineGrafanaUrl(null, facts)).toBeNull();
    expect(machineGrafanaUrl('https://g.example.org/sub', facts)).toBe('https://g.example.org/sub/d/fleet-machine/fleet-machine?var-account=a&var-machine=m');
    expect(machineGrafanaUrl('https://g.example.org', { ...facts, showInGrafana: false })).toBeNull();
  });

  it('are left out of the lists of machines', async () => {
    const res = await t.call({ method: 'GET', url: '/machines', as: 'admin', query: { machineId: String(ids.shown) } });
    const [listed] = (res.json() as { items: TMachine[] }).items;
    expect(listed!.id).toBe(ids.shown);
    expect(listed).not.toHaveProperty('cloudInstances');
    expect(listed).not.toHaveProperty('grafanaUrl');
  });

  it('stays 404 for a Customer Production machine without the group, 200 with it', async () => {
    const res = await t.call({ method: 'GET', url: `/machines/${ids.cp}`, as: 'operator' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('grafana');
    expect((await machine(ids.cp)).grafanaUrl).toContain('var-machine=');
  });
});
