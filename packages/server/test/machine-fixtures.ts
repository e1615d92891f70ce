/**
 * The fixture of the machine calls' tests without the task engine
 * (`src/modules/machines/machines.test.ts`, `machines-list.test.ts`,
 * `machines-create.test.ts`; spec 2 §2.2–§2.4, §4, §7): the test app on its own
 * copy of the demo-seeded database, the task events it emits (`events`), and
 * these accounts and machines (`ids`):
 * - `account` "Machines Fixture" (class 2): `plain` mf-launcher (launcher, idle,
 *   t2.medium, with a running simulated instance `cloudId`), `stopped` mf-site
 *   (site master, stop, type 3), `panicked` mf-panic (needsAdmin, failCounter 4)
 *   and `cp` mf-moved-to-production (class 5, Customer Production);
 * - `cpAccount` "Machines Production" (class 5) with `cpOfAccount` mp-launcher;
 * - `policy` "Policy Fixture" (class 1, InstancePerSiteMaster, no machine) with
 *   `siteA` and `siteB` (port 8443);
 * - `addOn` "Addon Fixture" (class 200).
 * And the calls the tests make: {@link call} as a user, {@link ok} (asserts
 * 200 and answers the body), {@link machineRow}, {@link lastActivity}.
 *
 * A test file calls {@link useMachineFixture} once at its top level. Vitest
 * gives each test file its own copy of this module, so `t`, `ids`, `cloudId`
 * and `events` are that file's, set by its `beforeAll`; the tests of a file
 * share them and run in order (a test may rely on what an earlier one did).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TUserActivity } from '@fleet/contracts';
import { machines, sites } from '../src/db/schema.js';
import { createSimulatedCloud } from '../src/engine/cloud/simulated.js';
import type { TaskEvent } from '../src/engine/push/events.js';
import { startTestApp, type TestApp } from './harness.js';
import { insertAccount, insertMachine } from './fixtures.js';

export let t: TestApp;
export const ids = { account: 0, cpAccount: 0, plain: 0, stopped: 0, panicked: 0, cp: 0, cpOfAccount: 0, policy: 0, addOn: 0, siteA: 0, siteB: 0 };
export let cloudId = '';
/** The task events the app emitted, oldest first. */
export const events: TaskEvent[] = [];

/** Starts the app and inserts the fixture before the file's tests; closes the app after them. */
export function useMachineFixture(): void {
  beforeAll(async () => {
    t = await startTestApp();
    const db = t.database.db;
    t.app.deps.events.subscribe((e) => {
      if ('task' in e) events.push(e);
    });
    const cloud = createSimulatedCloud({ db, delayMs: 0 });
    ids.account = (await insertAccount(db, { name: 'Machines Fixture', classId: 2 })).id;
    ids.cpAccount = (await insertAccount(db, { name: 'Machines Production', classId: 5 })).id;
    ids.plain = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-launcher', isLauncher: true, instanceTypeId: 2, idle: true })).id;
    ids.stopped = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-site', isSiteMaster: true, stop: true, instanceTypeId: 3 })).id;
    ids.panicked = (await insertMachine(db, { accountId: ids.account, classId: 2, name: 'mf-panic', needsAdmin: true, failCounter: 4 })).id;
    ids.cp = (await insertMachine(db, { accountId: ids.account, classId: 5, name: 'mf-moved-to-production' })).id;
    ids.cpOfAccount = (await insertMachine(db, { accountId: ids.cpAccount, classId: 5, name: 'mp-launcher' })).id;
    cloudId = (await cloud.launch({ machineId: ids.plain, region: 'eu-west-1', instanceTypeId: 2, clientToken: 'fixture-plain' })).cloudId;
    await cloud.describe(cloudId);

    ids.policy = (await insertAccount(db, { name: 'Policy Fixture', classId: 1, instancePolicy: 'InstancePerSiteMaster', urlFriendlyName: 'policyfix' })).id;
    const [a, b] = await db
      .insert(sites)
      .values([
        { accountId: ids.policy, name: 'Site A', urlFriendlyName: 'site-a', domainName: 'site-a-policyfix.fleet.example.net' },
        { accountId: ids.policy, name: 'Site B', urlFriendlyName: 'site-b', domainName: 'site-b-policyfix.fleet.example.net', port: 8443 },
      ])
      .returning();
    ids.siteA = a!.id;
    ids.siteB = b!.id;
    ids.addOn = (await insertAccount(db, { name: 'Addon Fixture', classId: 200 })).id;
  });
  afterAll(() => t.close());
}

/** The app's answer to a call as the demo user `as` (operator unless given). */
export const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, as = 'operator', body?: unknown, query?: Record<string, string>) =>
  t.call({ method, url, as, body, query });

/** The body of a call that must answer 200 (the test fails with the body otherwise). */
export const ok = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, as = 'operator', body?: unknown, query?: Record<string, string>) => {
  const res = await call(method, url, as, body, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

/** The machine's row as stored. */
export const machineRow = async (id: number) => (await t.database.db.select().from(machines).where(eq(machines.id, id)))[0]!;

/** The newest user activity of the action (as the admin reads it). */
export const lastActivity = async (action: string) =>
  (await ok<TUserActivity[]>('GET', '/user-activities', 'admin', undefined, { action, limit: '1' }))[0]!;
