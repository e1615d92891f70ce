import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertLauncherLogin, insertMachine } from '../../../test/fixtures.js';
import { accounts, launcherLogins, machineTasks } from '../../db/schema.js';
import { CLASS_CUSTOMER_PRODUCTION, type TAccountListItem, type TAccountListRow } from '@fleet/contracts';
import { searchPrefixOf, toPrefixTsQuery } from './accounts-filter.repository.js';

let t: TestApp;
const ids = { byName: 0, byCustomer: 0, cp: 0, flagged: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  // A distinctive word ("quokka") in the name of one account and in the customer of another.
  ids.byName = (await insertAccount(db, { name: 'Quokka Networks', customer: 'Plain Customer', classId: 2 })).id;
  ids.byCustomer = (await insertAccount(db, { name: 'Aardvark Labs', customer: 'Quokka Holdings', classId: 2 })).id;
  ids.cp = (await insertAccount(db, { name: 'Zircon Secret Production', customer: 'Kestrel Secret Customer', classId: 5, vmImageName: 'fixture-image' })).id;
  ids.flagged = (await insertAccount(db, { name: 'Flagged Fixture', classId: 3, vmImageName: 'fixture-image' })).id;
  await insertMachine(db, { accountId: ids.flagged, classId: 3, needsAdmin: true, turbo: true });
  await insertMachine(db, { accountId: ids.flagged, classId: 3, managed: false });
  await insertMachine(db, { accountId: ids.cp, classId: 5, needsAdmin: true });
  await insertLauncherLogin(db, ids.flagged, 'jdoe', 's3cret-launcher');
});
afterAll(() => t.close());

/** A page as the admin (group CustomerProductionAccess) gets it: every row full. */
const list = async (as: string, query: Record<string, string> = {}) => {
  const res = await t.call({ method: 'GET', url: '/accounts', as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: TAccountListItem[]; totalItems: number };
};
/** A page with its restricted rows (a user without the group). */
const rows = async (as: string, query: Record<string, string> = {}) => (await list(as, query)) as unknown as { items: TAccountListRow[]; totalItems: number };

describe('GET /accounts', () => {
  it('pages 20 by default, sorted by name ascending, with the total', async () => {
    const page = await list('admin');
    expect(page.items).toHaveLength(20);
    expect(page.totalItems).toBeGreaterThan(100);
    const names = page.items.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const next = await list('admin', { startIndex: '20' });
    expect(next.items[0]!.name >= names[19]!).toBe(true);
    expect(next.items.map((a) => a.id)).not.toContain(page.items[0]!.id);
  });

  it.each([
    ['name', (a: TAccountListItem): string | number => a.name],
    ['creationTime', (a: TAccountListItem): string | number => a.creationTime],
    ['creator', (a: TAccountListItem): string | number => a.creator],
    ['class', (a: TAccountListItem): string | number => a.classId],
    ['description', (a: TAccountListItem): string | number => a.description],
  ] as const)('sorts by %s both ways', async (sortBy, key) => {
    for (const sortDirection of ['Ascending', 'Descending'] as const) {
      const { items } = await list('admin', { sortBy, sortDirection, limit: '100' });
      const values = items.map(key);
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(sortDirection === 'Ascending' ? sorted : sorted.reverse());
    }
  });

  it('sorts by expiration time with accounts without one last', async () => {
    const { items } = await list('admin', { sortBy: 'expirationTime', limit: '1000' });
    const firstNull = items.findIndex((a) => a.expirationTime === null);
    if (firstNull >= 0) expect(items.slice(firstNull).every((a) => a.expirationTime === null)).toBe(true);
    const dated = items.filter((a) => a.expirationTime !== null).map((a) => a.expirationTime!);
    expect(dated).toEqual([...dated].sort());
  });

  it('searches name, urlFriendlyName, customer and creator by word prefix, name weighing more', async () => {
    const { items } = await list('admin', { search: 'quokk' });
    expect(items.map((a) => a.id).slice(0, 2)).toEqual([ids.byName, ids.byCustomer]);
    const byCreator = await list('admin', { search: 'fixture' });
    expect(byCreator.items.map((a) => a.id)).toEqual(expect.arrayContaining([ids.byName, ids.byCustomer, ids.flagged]));
    expect((await list('admin', { search: 'quokka networks' })).items.map((a) => a.id)).toEqual([ids.byName]);
  });

  it('ranks a search as ts_rank over the accounts own search vectors does: same accounts, order and total, for each filter and user', async () => {
    // The reference is the ranking of the list before account_search (issue 9):
    // over `accounts.search`, live accounts, ties by name and id, filters applied after.
    // The operator's Customer Production rows are restricted: matched and ranked by their name alone, and
    // left out by a SaaS image or machine status filter (accounts-filter.repository.ts).
    const reference = async (as: string, search: string, filter: Record<string, string>, descending: boolean) => {
      const dir = sql.raw(descending ? 'desc' : 'asc');
      const tsq = toPrefixTsQuery(search)!;
      const restricted = sql`(${as !== 'admin'} and a.class_id = ${CLASS_CUSTOMER_PRODUCTION}::int)`;
      const name = sql`setweight(to_tsvector('simple', a.name), 'A')`;
      const { rows } = await t.database.db.execute<{ id: number; class_id: number; vm_image_name: string | null } & Record<string, number>>(sql`
        select a.id, a.class_id, a.vm_image_name, coalesce(s.needs_admin, 0) as "needsAdmin", coalesce(s.unmanaged, 0) as unmanaged,
          coalesce(s.stopped, 0) as stopped, coalesce(s.turbo, 0) as turbo, coalesce(s.idle, 0) as idle
        from accounts a left join account_machine_status s on s.account_id = a.id
        where a.deleted_at is null and a.search @@ to_tsquery('simple', ${tsq})
          and (not ${restricted} or ${name} @@ to_tsquery('simple', ${tsq}))
        order by ts_rank('{0.1, 0.2, 0.5, 1.0}', case when ${restricted} then ${name} else a.search end, to_tsquery('simple', ${tsq})) desc,
          a.name ${dir}, a.id ${dir}`);
      const any = (row: Record<string, number>, list?: string) => (list ?? '').split(',').some((st) => st !== '' && row[st]! > 0);
      const testsHidden = Boolean(filter.saasImage || filter.machineStatusInclude || filter.machineStatusExclude);
      return rows
        .filter((r) => as === 'admin' || r.class_id !== CLASS_CUSTOMER_PRODUCTION || !testsHidden)
        .filter((r) => !filter.classIds || filter.classIds.split(',').map(Number).includes(r.class_id))
        .filter((r) => !filter.saasImage || r.vm_image_name === filter.saasImage)
        .filter((r) => !filter.machineStatusInclude || any(r, filter.machineStatusInclude))
        .filter((r) => !filter.machineStatusExclude || !any(r, filter.machineStatusExclude))
        .map((r) => r.id);
    };
    const filters: Record<string, string>[] = [
      {},
      { classIds: '1,2,3,4' },
      { classIds: '5' },
      { machineStatusInclude: 'needsAdmin,turbo' },
      { machineStatusExclude: 'stopped,idle' },
      { classIds: '1,2,3', machineStatusInclude: 'needsAdmin,unmanaged', machineStatusExclude: 'stopped' },
      { saasImage: 'fixture-image' },
    ];
    // One word of up to six ASCII letters and digits is read from account_search_prefixes
    // ('a', 'o', 'ada', 'fixtu', 'admin'); longer words, more words and the rest are ranked live.
    for (const search of ['a', 'fixture', 'o', 'ada', 'fixtu', 'admin', 'staging 2', 'ada admin', 'nomatchatall', 'zircon', 'kestrel', 'secret']) {
      for (const filter of filters) {
        for (const as of ['admin', 'operator']) {
          for (const descending of [false, true]) {
            const expected = await reference(as, search, filter, descending);
            const query = { ...filter, search, limit: '1000', ...(descending ? { sortDirection: 'Descending' } : {}) };
            const page = await list(as, query);
            const context = `${as} ${JSON.stringify(query)}`;
            expect(page.items.map((a) => a.id), context).toEqual(expected);
            expect(page.totalItems, context).toBe(expected.length);
            if (expected.length > 3) {
              // A later page is the same ranking's slice.
              expect((await list(as, { ...query, startIndex: '2', limit: '2' })).items.map((a) => a.id), context).toEqual(expected.slice(2, 4));
            }
          }
        }
      }
    }
  });

  it('keeps the search vectors of live accounts in step with the accounts: insert, rename, class change, deletion', async () => {
    const db = t.database.db;
    const searchIds = async (search: string, query: Record<string, string> = {}) =>
      (await list('admin', { search, limit: '1000', ...query })).items.map((a) => a.id);
    const account = await insertAccount(db, { name: 'Wombat Systems', customer: 'Marsupial Group', classId: 2 });
    expect(await searchIds('wombat')).toEqual([account.id]);
    expect(await searchIds('marsupial')).toEqual([account.id]);
    await db.update(accounts).set({ name: 'Numbat Systems', urlFriendlyName: 'numbatsystems', customer: 'Other Group' }).where(eq(accounts.id, account.id));
    expect(await searchIds('wombat')).toEqual([]);
    expect(await searchIds('marsupial')).toEqual([]);
    expect(await searchIds('numbat')).toEqual([account.id]);
    await db.update(accounts).set({ classId: 3 }).where(eq(accounts.id, account.id));
    expect(await searchIds('numbat', { classIds: '2' })).toEqual([]);
    expect(await searchIds('numbat', { classIds: '3' })).toEqual([account.id]);
    expect((await t.call({ method: 'DELETE', url: `/accounts/${account.id}`, as: 'admin' })).statusCode).toBe(200);
    expect(await searchIds('numbat')).toEqual([]);
    // Every live account has exactly its own vector, name and class; no deleted one has a row.
    const { rows } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from accounts a full join account_search s on s.account_id = a.id
      where (a.deleted_at is null) is distinct from (s.account_id is not null)
        or (s.account_id is not null and (s.search <> a.search or s.name <> a.name or s.class_id <> a.class_id))`);
    expect(rows[0]!.n).toBe(0);
    // The prefix rows are exactly those recomputed from account_search now: the
    // same prefixes, class, name and rank (the ranking's value), none left over.
    const prefixes = await db.execute<{ n: number }>(sql`
      with expected as (
        select r.* from account_search s, account_search_prefix_rows(s.account_id, s.class_id, s.name, s.search) r)
      select count(*)::int as n from expected e full join account_search_prefixes p using (prefix, account_id)
      where e.account_id is null or p.account_id is null or (e.class_id, e.name, e.rank) is distinct from (p.class_id, p.name, p.rank)`);
    expect(prefixes.rows[0]!.n).toBe(0);
    const numbat = await db.execute<{ n: number }>(sql`select count(*)::int as n from account_search_prefixes where account_id = ${account.id}`);
    expect(numbat.rows[0]!.n).toBe(0);
  });

  it('serves one short ASCII word from the prefix rows, anything else live', () => {
    expect(searchPrefixOf('Admin')).toBe('admin');
    expect(searchPrefixOf('  a ')).toBe('a');
    expect(searchPrefixOf('abcdef')).toBe('abcdef');
    expect(searchPrefixOf('abcdefg')).toBeUndefined();
    expect(searchPrefixOf('ada admin')).toBeUndefined();
    expect(searchPrefixOf('zürich')).toBeUndefined();
    expect(searchPrefixOf('')).toBeUndefined();
    expect(searchPrefixOf('--')).toBeUndefined();
  });

  it('ignores search text that has no word in it, and tsquery syntax in it', async () => {
    const all = await list('admin');
    expect((await list('admin', { search: "!!! & | ' :*" })).totalItems).toBe(all.totalItems);
  });

  it('filters by class, SaaS image and machine status include and exclude', async () => {
    const classes = await list('admin', { classIds: '2', limit: '1000' });
    expect(classes.items.every((a) => a.classId === 2)).toBe(true);
    expect(classes.items.map((a) => a.id)).toContain(ids.byName);

    const image = await list('admin', { saasImage: 'fixture-image' });
    expect(image.items.map((a) => a.id).sort()).toEqual([ids.cp, ids.flagged].sort());

    const panic = await list('admin', { machineStatusInclude: 'needsAdmin', limit: '1000' });
    expect(panic.items.map((a) => a.id)).toEqual(expect.arrayContaining([ids.flagged, ids.cp]));
    expect(panic.items.every((a) => a.machineStats.needsAdmin > 0)).toBe(true);

    const turboOrUnmanaged = await list('admin', { machineStatusInclude: 'turbo,unmanaged', limit: '1000' });
    expect(turboOrUnmanaged.items.every((a) => a.machineStats.turbo + a.machineStats.unmanaged > 0)).toBe(true);

    const healthy = await list('admin', { machineStatusExclude: 'needsAdmin,unmanaged', limit: '1000' });
    expect(healthy.items.map((a) => a.id)).not.toContain(ids.flagged);
    expect(healthy.items.every((a) => a.machineStats.needsAdmin === 0 && a.machineStats.unmanaged === 0)).toBe(true);
  });

  it('gives a total equal to the matching rows, for every filter and for each user', async () => {
    const filters: Record<string, string>[] = [
      {},
      { classIds: '1,2,3,4' },
      { classIds: '5' },
      { machineStatusInclude: 'needsAdmin,turbo' },
      { machineStatusExclude: 'stopped' },
      { classIds: '1,2,3,4', machineStatusInclude: 'needsAdmin,turbo', machineStatusExclude: 'stopped' },
      { machineStatusInclude: 'obsolete', machineStatusExclude: 'idle,manualMaintenance' },
      { saasImage: 'fixture-image', machineStatusExclude: 'unmanaged' },
      { search: 'fixture', machineStatusInclude: 'needsAdmin' },
    ];
    for (const as of ['admin', 'operator']) {
      for (const filter of filters) {
        const page = await list(as, { ...filter, limit: '1000' });
        expect(page.totalItems, `${as} ${JSON.stringify(filter)}`).toBe(page.items.length);
      }
    }
    // A new account, a flagged machine and a deletion move the totals at once.
    const before = (await list('admin', { machineStatusInclude: 'stopped' })).totalItems;
    const account = await insertAccount(t.database.db, { name: 'Total Mover', classId: 1 });
    await insertMachine(t.database.db, { accountId: account.id, stop: true });
    expect((await list('admin', { machineStatusInclude: 'stopped' })).totalItems).toBe(before + 1);
    expect((await t.call({ method: 'DELETE', url: `/accounts/${account.id}`, as: 'admin' })).statusCode).toBe(200);
    expect((await list('admin', { machineStatusInclude: 'stopped' })).totalItems).toBe(before);
  });

  it('counts each account machines per status', async () => {
    const { items } = await list('admin', { search: 'flagged fixture' });
    expect(items[0]!.machineStats).toMatchObject({ machines: 2, needsAdmin: 1, turbo: 1, unmanaged: 1, stopped: 0 });
  });

  it('lists Customer Production to users without the group as restricted rows (accounts-restricted.test.ts); not in lookups, 404 by id', async () => {
    const adminAll = await list('admin', { limit: '1000' });
    const operatorAll = await rows('operator', { limit: '1000' });
    expect(adminAll.items.some((a) => a.classId === 5)).toBe(true);
    expect(adminAll.items.every((a) => a.restricted === false)).toBe(true);
    expect(operatorAll.items.map((a) => a.id)).toEqual(adminAll.items.map((a) => a.id));
    expect(operatorAll.totalItems).toBe(adminAll.totalItems);
    expect(operatorAll.items.filter((a) => a.restricted).map((a) => a.classId)).toEqual(adminAll.items.filter((a) => a.classId === 5).map(() => 5));

    const lookup = (await t.call({ method: 'GET', url: '/lookup/accounts', as: 'operator' })).json();
    expect(lookup.map((a: { id: number }) => a.id)).not.toContain(ids.cp);
    const adminLookup = (await t.call({ method: 'GET', url: '/lookup/accounts', as: 'admin' })).json();
    expect(adminLookup.map((a: { id: number }) => a.id)).toContain(ids.cp);

    // A SaaS image filter tests what a restricted row does not show: the row and its machines are left out.
    const info = (await t.call({ method: 'GET', url: '/accounts/info', as: 'operator', query: { saasImage: 'fixture-image' } })).json();
    expect(info.totalAccounts).toBe(1);
    expect(info.machineCounts.needsAdmin).toBe(1);

    expect((await t.call({ method: 'DELETE', url: `/accounts/${ids.cp}`, as: 'operator' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}/launcher-logins`, as: 'operator' })).statusCode).toBe(404);
  });

  it.each([
    [{ sortBy: 'password' }, 'sortBy'],
    [{ sortDirection: 'Up' }, 'sortDirection'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '100000' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ startIndex: '-1' }, 'startIndex'],
    [{ search: 'x'.repeat(201) }, 'search'],
    [{ classIds: '1,abc' }, 'classIds'],
    [{ classIds: '7' }, 'classIds'],
    [{ machineStatusInclude: 'broken' }, 'machineStatusInclude'],
    [{ machineStatusExclude: 'idle,nope' }, 'machineStatusExclude'],
  ])('answers 400 naming the field for %o', async (query, field) => {
    const res = await t.call({ method: 'GET', url: '/accounts', as: 'admin', query: query as Record<string, string> });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors.map((e: { propertyName: string }) => e.propertyName)).toContain(field);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const bad = await t.call({ method: 'DELETE', url: '/accounts/abc', as: 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('id');
    expect((await t.call({ method: 'DELETE', url: '/accounts/0', as: 'admin' })).statusCode).toBe(400);
    expect((await t.call({ method: 'DELETE', url: '/accounts/99999999999', as: 'admin' })).statusCode).toBe(400);
    expect((await t.call({ method: 'DELETE', url: '/accounts/999999', as: 'admin' })).statusCode).toBe(404);
  });
});

describe('GET /accounts/info', () => {
  it('sums the matching accounts: per-class machine counts, machine and account counts per status', async () => {
    const res = await t.call({ method: 'GET', url: '/accounts/info', as: 'admin', query: { saasImage: 'fixture-image' } });
    expect(res.statusCode).toBe(200);
    const info = res.json();
    expect(info.totalAccounts).toBe(2);
    expect(info.classMachineCounts.map((c: { name: string }) => c.name)).toEqual([
      'Experimental',
      'Internal Testing',
      'Internal Production',
      'Customer Staging',
    ]);
    expect(info.classMachineCounts.find((c: { id: number }) => c.id === 3).machines).toBe(2);
    expect(info.machineCounts).toMatchObject({ machines: 3, needsAdmin: 2, unmanaged: 1, turbo: 1 });
    expect(info.accountCounts).toMatchObject({ machines: 2, needsAdmin: 2, unmanaged: 1, turbo: 1 });
  });
});

describe('GET /accounts/{id}/launcher-logins', () => {
  it('decrypts passwords for a writer, audits the read, and keeps them encrypted at rest', async () => {
    const res = await t.call({ method: 'GET', url: `/accounts/${ids.flagged}/launcher-logins`, as: 'operator' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ userName: 'jdoe', firstName: 'First', lastName: 'Last', password: 's3cret-launcher' }]);
    const [stored] = await t.database.db.select().from(launcherLogins).where(eq(launcherLogins.accountId, ids.flagged));
    expect(stored!.passwordEnc).not.toContain('s3cret');
    const audit = (await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { action: 'ViewLauncherLogins', accountId: String(ids.flagged) } })).json();
    expect(audit[0]).toMatchObject({ user: 'operator', accounts: [{ id: ids.flagged, name: 'Flagged Fixture' }] });
  });

  it('refuses a user without write', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.flagged}/launcher-logins`, as: 'viewer' })).statusCode).toBe(403);
  });
});

describe('DELETE /accounts/{id}', () => {
  it('refuses a viewer and changes nothing', async () => {
    const res = await t.call({ method: 'DELETE', url: `/accounts/${ids.flagged}`, as: 'viewer' });
    expect(res.statusCode).toBe(403);
    expect((await list('viewer', { search: 'flagged fixture' })).totalItems).toBe(1);
  });

  it('removes the account from the list, keeps its audit, and queues TerminateMachine per machine', async () => {
    const res = await t.call({ method: 'DELETE', url: `/accounts/${ids.flagged}`, as: 'operator' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ terminatedMachines: 2 });
    expect((await list('admin', { search: 'flagged fixture' })).totalItems).toBe(0);
    const tasks = await t.database.db
      .select()
      .from(machineTasks)
      .where(and(eq(machineTasks.accountId, ids.flagged), eq(machineTasks.type, 'TerminateMachine')));
    expect(tasks).toHaveLength(2);
    expect(tasks.every((task) => task.status === 'New')).toBe(true);
    const marked = await t.database.db.execute(sql`select count(*)::int as n from machines where account_id = ${ids.flagged} and terminate`);
    expect(marked.rows[0]).toEqual({ n: 2 });
    const audit = (await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { accountId: String(ids.flagged) } })).json();
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['DeleteAccount', 'ViewLauncherLogins']);
    expect(audit[0].metadata.changes).toEqual([{ entityName: 'Account', propertyName: 'deleted', oldValue: false, newValue: true }]);
    expect((await t.call({ method: 'DELETE', url: `/accounts/${ids.flagged}`, as: 'operator' })).statusCode).toBe(404);
  });
});

describe('GET /lookup/accounts?parentCandidates=true', () => {
  it('keeps only possible add-on parents: no templates, no accounts with a parent, no add-ons (spec 1 §5)', async () => {
    const db = t.database.db;
    const parent = await insertAccount(db, { name: 'Wombat Parent Candidate', classId: 2 });
    const template = await insertAccount(db, { name: 'Wombat Template', classId: 2, isTemplate: true });
    const addOn = await insertAccount(db, { name: 'Wombat Add-on', classId: 200, parentId: parent.id });
    const lookup = async (query: Record<string, string>) => {
      const res = await t.call({ method: 'GET', url: '/lookup/accounts', as: 'operator', query });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: number; classId: number }[]).map((a) => a.id);
    };
    const all = await lookup({});
    expect(all).toEqual(expect.arrayContaining([parent.id, template.id, addOn.id]));
    const candidates = await lookup({ parentCandidates: 'true' });
    expect(candidates).toContain(parent.id);
    expect(candidates).not.toContain(template.id);
    expect(candidates).not.toContain(addOn.id);
    expect(candidates).not.toContain(ids.cp);
    expect(await lookup({ parentCandidates: 'false' })).toEqual(all);
    const bad = await t.call({ method: 'GET', url: '/lookup/accounts', as: 'operator', query: { parentCandidates: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].propertyName).toBe('parentCandidates');
  });
});
