/**
 * Restricted rows of the accounts list (spec 1 §2 Accounts list: "Accounts of
 * class Customer Production show the name as plain text with no actions unless
 * the user is in group CustomerProductionAccess"; §6): a user without the group
 * is listed those accounts with their id, name and class and nothing else; they
 * match the class filter and a search by their name only, a SaaS image or
 * machine status filter leaves them out, and they come after the others when
 * sorted by a column they do not show. The footer and the top bar count them
 * as for the admin; every call about such an account or its machines is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_IDS, DEFAULT_LIST_CLASS_IDS, type TAccountListRow, type TAccountsInfo, type TMachineStats } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';

let t: TestApp;
const ids = { cp: 0, cpMachine: 0, twin: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  // A Customer Production account whose customer, creator and URL name carry words its name does not,
  // and an Internal Testing account with the same customer.
  const cp = await insertAccount(db, {
    name: 'Platypus Vault',
    urlFriendlyName: 'kookaburra-vault',
    customer: 'Numbat Holdings',
    creator: 'dingo',
    description: 'a secret description',
    classId: 5,
    vmImageName: 'restricted-image',
  });
  ids.cp = cp.id;
  ids.cpMachine = (await insertMachine(db, { accountId: cp.id, classId: 5, needsAdmin: true, turbo: true })).id;
  ids.twin = (await insertAccount(db, { name: 'Open Numbat Twin', customer: 'Numbat Holdings', classId: 2 })).id;
});
afterAll(() => t.close());

const list = async (as: string, query: Record<string, string> = {}) => {
  const res = await t.call({ method: 'GET', url: '/accounts', as, query: { limit: '1000', ...query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: TAccountListRow[]; totalItems: number };
};
const idsOf = (page: { items: TAccountListRow[] }) => page.items.map((a) => a.id);

describe('restricted rows of GET /accounts', () => {
  it('reveal nothing but the id, name and class, to an operator and a viewer; full rows to the admin', async () => {
    for (const as of ['operator', 'viewer']) {
      const row = (await list(as)).items.find((a) => a.id === ids.cp)!;
      expect(Object.keys(row).sort(), as).toEqual(['class', 'classId', 'id', 'name', 'restricted']);
      expect(row, as).toEqual({ restricted: true, id: ids.cp, name: 'Platypus Vault', classId: 5, class: { id: 5, name: 'Customer Production' } });
      // Rows of the other classes are full.
      const open = (await list(as)).items.find((a) => a.id === ids.twin)!;
      expect(open).toMatchObject({ restricted: false, customer: 'Numbat Holdings' });
    }
    const admin = (await list('admin')).items.find((a) => a.id === ids.cp)!;
    expect(admin).toMatchObject({ restricted: false, customer: 'Numbat Holdings', creator: 'dingo', vmImageName: 'restricted-image' });
    expect(admin.restricted === false && admin.machineStats).toMatchObject({ machines: 1, needsAdmin: 1, turbo: 1 });
  });

  it('match the class filter and a search by their name, never by URL name, customer or creator', async () => {
    expect(idsOf(await list('operator', { classIds: '5' }))).toContain(ids.cp);
    expect(idsOf(await list('operator', { classIds: '1,2' }))).not.toContain(ids.cp);
    for (const search of ['platypus', 'platy', 'vault platypus', 'p']) {
      expect(idsOf(await list('operator', { search })), search).toContain(ids.cp);
    }
    for (const search of ['numbat', 'numb', 'dingo', 'd', 'kookaburra', 'k', 'platypus numbat']) {
      const operator = await list('operator', { search });
      expect(idsOf(operator), search).not.toContain(ids.cp);
      expect(operator.totalItems, search).toBe(operator.items.length);
      expect(idsOf(await list('admin', { search })), search).toContain(ids.cp);
    }
    // The customer still finds the account the operator may open.
    expect(idsOf(await list('operator', { search: 'numbat' }))).toContain(ids.twin);
    // Ranked by the name alone: the rank, too, depends on nothing hidden. The prefix 'p' is served from the prefix rows.
    const byName = await list('operator', { search: 'platypus' });
    expect(byName.items[0]!.id).toBe(ids.cp);
  });

  it('are left out by a SaaS image or machine status filter, which tests what they do not show', async () => {
    expect(idsOf(await list('admin', { saasImage: 'restricted-image' }))).toEqual([ids.cp]);
    expect(await list('operator', { saasImage: 'restricted-image' })).toEqual({ items: [], totalItems: 0 });
    const queries: Record<string, string>[] = [{ machineStatusInclude: 'needsAdmin' }, { machineStatusExclude: 'stopped' }, { classIds: '5', machineStatusInclude: 'turbo' }];
    for (const query of queries) {
      const operator = await list('operator', query);
      expect(operator.items.some((a) => a.restricted), JSON.stringify(query)).toBe(false);
      expect(operator.totalItems).toBe(operator.items.length);
      expect(idsOf(await list('admin', query)), JSON.stringify(query)).toContain(ids.cp);
    }
  });

  it('come after the others, by name, when sorted by a column they do not show; in place by name and class', async () => {
    for (const sortBy of ['creator', 'description', 'creationTime', 'expirationTime']) {
      for (const sortDirection of ['Ascending', 'Descending']) {
        const page = await list('operator', { sortBy, sortDirection });
        const firstRestricted = page.items.findIndex((a) => a.restricted);
        const context = `${sortBy} ${sortDirection}`;
        expect(firstRestricted, context).toBeGreaterThan(0);
        expect(page.items.slice(firstRestricted).every((a) => a.restricted), context).toBe(true);
        const names = page.items.slice(firstRestricted).map((a) => a.name);
        expect(names, context).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        expect(page.totalItems, context).toBe(page.items.length);
      }
    }
    // By name and by class, where a restricted row shows its value, the operator's order is the admin's.
    const queries: Record<string, string>[] = [{ sortBy: 'name', sortDirection: 'Descending' }, { sortBy: 'class' }, {}];
    for (const query of queries) {
      expect(idsOf(await list('operator', query)), JSON.stringify(query)).toEqual(idsOf(await list('admin', query)));
    }
  });
});

describe('the counts with restricted rows', () => {
  const info = async (as: string, query: Record<string, string>) => {
    const res = await t.call({ method: 'GET', url: '/accounts/info', as, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TAccountsInfo;
  };
  const stats = async (as: string) => (await t.call({ method: 'GET', url: '/machines/stats', as })).json() as TMachineStats;

  it("equal the admin's in the footer (default and every class) and in the top bar", async () => {
    for (const classIds of [DEFAULT_LIST_CLASS_IDS.join(','), CLASS_IDS.join(','), '5']) {
      expect(await info('operator', { classIds }), classIds).toEqual(await info('admin', { classIds }));
      expect((await list('operator', { classIds })).totalItems).toBe((await list('admin', { classIds })).totalItems);
    }
    const admin = await stats('admin');
    const operator = await stats('operator');
    const { restricted: adminRestricted, ...adminCounts } = admin;
    const { restricted, ...operatorCounts } = operator;
    const unrestricted = (s: typeof adminCounts) => ({ ...s, runningCost: 0, totalCost: 0, classStats: s.classStats.map((c) => ({ ...c, restricted: 0 })) });
    expect(unrestricted(operatorCounts)).toEqual(unrestricted(adminCounts));
    expect(operator.classStats.find((c) => c.class.id === 5)!.total).toBeGreaterThan(0);
    expect(adminRestricted).toEqual({ classIds: [], needsAdmin: 0, turbo: 0, unmanaged: 0 });
    expect(restricted.classIds).toEqual([5]);
    expect(restricted.needsAdmin).toBeGreaterThan(0);
    // What the Machines viewer lists for the operator: the chip less its restricted machines.
    const listed = (await t.call({ method: 'GET', url: '/machines', as: 'operator', query: { needsAdmin: 'true', limit: '1' } })).json();
    expect(listed.totalItems).toBe(operator.needsAdmin - restricted.needsAdmin);
  });
});

describe('a restricted account by id', () => {
  it('is 404 to the operator for the account, its sections, machines, sites, backups and keys; 200 to the admin', async () => {
    const paths = [
      `/accounts/${ids.cp}`,
      `/accounts/${ids.cp}/instance-settings`,
      `/accounts/${ids.cp}/machines`,
      `/accounts/${ids.cp}/sites`,
      `/accounts/${ids.cp}/backups`,
      `/accounts/${ids.cp}/creatable-machines`,
      `/machines/${ids.cpMachine}`,
      `/machines/${ids.cpMachine}/tasks`,
    ];
    for (const url of paths) {
      const res = await t.call({ method: 'GET', url, as: 'operator' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/problem+json');
      expect(res.body, url).not.toContain('Numbat');
    }
    for (const url of paths.slice(0, 3)) expect((await t.call({ method: 'GET', url, as: 'admin' })).statusCode, url).toBe(200);
    const keys = await t.call({ method: 'POST', url: `/accounts/${ids.cp}/generate-keys`, as: 'operator' });
    expect(keys.statusCode).toBe(404);
    const patch = await t.call({ method: 'PATCH', url: `/accounts/${ids.cp}/machines/${ids.cpMachine}`, as: 'operator', body: { turbo: false } });
    expect(patch.statusCode).toBe(404);
  });
});
