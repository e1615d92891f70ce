/**
 * API tests of the catalogue reads (spec 1 §7 Lookups; spec 3 §2.1, §7 Software,
 * Cloud, Library) and of marking a commit breaking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_OLD_FILE_DAYS, type TBuild, type TCommit, type TInstanceType, type TLibraryFile, type TListCommitsResponse } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, fieldErrors } from '../../../test/account-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = async <T>(url: string, query: Record<string, string> = {}, as = 'viewer'): Promise<T> => {
  const res = await t.call({ method: 'GET', url, as, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

describe('lookups', () => {
  it('answers arrays: customer names, features, reporting categories, regions, IRMN versions, branches', async () => {
    const customers = await get<string[]>('/customers');
    expect(customers).toContain('Contoso Telecom');
    expect(customers).toEqual([...customers].sort());
    expect(await get('/lookup/features')).toEqual(expect.arrayContaining([{ id: expect.any(Number), name: 'Fiber Management' }]));
    expect(await get('/lookup/reporting-categories')).toEqual(expect.arrayContaining([{ id: expect.any(Number), name: 'Inventory' }]));
    expect(await get('/cloud/regions')).toEqual(expect.arrayContaining([{ id: expect.any(Number), name: 'EU (Ireland)', cloudCode: 'eu-west-1' }]));
    expect(await get('/irmn-versions')).toEqual(expect.arrayContaining([{ id: expect.any(Number), name: '8.1', default: true, status: 'Released' }]));
    expect(await get('/software/branches')).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'feature/legacy-cad-bridge', repoMissing: true })]));
  });

  it('keeps machine and Redis instance types apart; id 2 is t2.medium', async () => {
    const machineTypes = await get<TInstanceType[]>('/cloud/instance-types');
    const redis = await get<TInstanceType[]>('/cloud/redis-instance-types');
    expect(machineTypes.find((x) => x.id === 2)).toMatchObject({ name: 't2.medium', memorySize: null });
    expect(machineTypes.every((x) => x.memorySize === null)).toBe(true);
    expect(redis.length).toBeGreaterThan(0);
    expect(redis.every((x) => x.memorySize !== null && x.storageSize === 0)).toBe(true);
  });
});

describe('GET /software/{software}/commits', () => {
  it('pages 10 newest first by default with page and limit', async () => {
    const first = await get<TListCommitsResponse>('/software/launcher/commits');
    expect(first).toMatchObject({ page: 1, limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.totalItems).toBeGreaterThan(20);
    const stamps = first.items.map((c) => c.timestamp);
    expect(stamps).toEqual([...stamps].sort().reverse());
    const third = await get<TListCommitsResponse>('/software/launcher/commits', { startIndex: '20' });
    expect(third.page).toBe(3);
    expect(third.items[0]!.timestamp <= first.items[9]!.timestamp).toBe(true);
  });

  it('filters by branch, tags only, builds only and search (message, hash prefix, tag)', async () => {
    const release = await get<TListCommitsResponse>('/software/siteMaster/commits', { branch: 'release/8.1', limit: '100' });
    expect(release.totalItems).toBe(6);
    expect(release.items.every((c) => c.branch === 'release/8.1' && c.message.endsWith('(siteMaster)'))).toBe(true);
    const tagged = await get<TListCommitsResponse>('/software/siteMaster/commits', { tagsOnly: 'true', limit: '100' });
    expect(tagged.items.every((c) => c.tags.length > 0)).toBe(true);
    const built = await get<TListCommitsResponse>('/software/siteMaster/commits', { buildsOnly: 'true', limit: '100' });
    expect(built.items.every((c) => c.builds.length > 0)).toBe(true);
    expect(built.totalItems).toBeGreaterThan(tagged.totalItems);

    const sample = release.items[0]!;
    const byHash = await get<TListCommitsResponse>('/software/siteMaster/commits', { search: sample.shortHash.slice(0, 5) });
    expect(byHash.items.map((c) => c.fullHash)).toContain(sample.fullHash);
    const tag = tagged.items[0]!.tags[0]!.name;
    expect((await get<TListCommitsResponse>('/software/siteMaster/commits', { search: tag })).items.some((c) => c.tags.some((x) => x.name === tag))).toBe(true);
    const word = sample.message.split(' ')[1]!;
    const byWord = await get<TListCommitsResponse>('/software/siteMaster/commits', { search: word, limit: '100' });
    expect(byWord.items.every((c) => `${c.message} ${c.author}`.toLowerCase().includes(word.toLowerCase()) || c.tags.some((x) => x.name.toLowerCase().includes(word.toLowerCase())))).toBe(true);
    expect((await get<TListCommitsResponse>('/software/siteMaster/commits', { search: '%_%' })).totalItems).toBe(0);
  });

  it('answers 400 for an unknown component and malformed flags', async () => {
    expect(fieldErrors(await t.call({ method: 'GET', url: '/software/solitaire/commits', as: 'viewer' }))[0]).toMatch(/^software:/);
    expect(fieldErrors(await t.call({ method: 'GET', url: '/software/launcher/commits', as: 'viewer', query: { tagsOnly: 'maybe' } }))[0]).toMatch(/^tagsOnly:/);
  });
});

describe('GET /software/{software}/builds', () => {
  it('lists Daily or Release builds newest first', async () => {
    const release = await get<TBuild[]>('/software/launcher/builds', { type: 'Release' });
    expect(release.length).toBeGreaterThan(0);
    expect(release.every((b) => b.type === 'Release' && b.url.endsWith('.zip'))).toBe(true);
    const daily = await get<TBuild[]>('/software/launcher/builds', { type: 'Daily' });
    expect(daily.every((b) => b.type === 'Daily')).toBe(true);
    expect((await get<TBuild[]>('/software/launcher/builds')).length).toBe(release.length + daily.length);
  });
});

describe('PUT /software/{software}/commits/{hash}/breaking', () => {
  it('marks and unmarks a commit, audited; 404 for an unknown hash; 403 for viewers', async () => {
    const [commit] = (await get<TListCommitsResponse>('/software/populate/commits', { limit: '1' })).items;
    const url = `/software/populate/commits/${commit!.shortHash}/breaking`;
    const marked = await t.call({ method: 'PUT', url, as: 'operator', body: { isBreaking: true, breakingMsg: 'Needs a schema migration' } });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ shortHash: commit!.shortHash, isBreaking: true, breakingMsg: 'Needs a schema migration' });
    const [activity] = await activities(t, undefined, 'MarkCommitBreaking');
    expect(activity).toMatchObject({ user: 'operator', metadata: { params: { software: 'populate', hash: commit!.shortHash } } });
    const unmarked = await t.call({ method: 'PUT', url: `/software/populate/commits/${commit!.fullHash}/breaking`, as: 'operator', body: { isBreaking: false } });
    expect(unmarked.json() as TCommit).toMatchObject({ isBreaking: false, breakingMsg: null });
    expect((await t.call({ method: 'PUT', url: '/software/populate/commits/abcdef0/breaking', as: 'admin', body: { isBreaking: true } })).statusCode).toBe(404);
    expect((await t.call({ method: 'PUT', url, as: 'viewer', body: { isBreaking: true } })).statusCode).toBe(403);
    expect(fieldErrors(await t.call({ method: 'PUT', url, as: 'admin', body: { isBreaking: 'yes' } }))[0]).toMatch(/^isBreaking:/);
  });
});

describe('library', () => {
  const files = (query: Record<string, string>) => get<{ items: TLibraryFile[]; totalItems: number }>('/library/files', query);

  it('pages, searches, filters and sorts library files', async () => {
    const all = await files({ limit: '1000' });
    expect(all.totalItems).toBe(all.items.length);
    const dates = all.items.map((f) => f.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const page = await files({ limit: '12', startIndex: '12' });
    expect(page.items).toEqual(all.items.slice(12, 24));

    const prod81 = await files({ version: '8.1', type: 'Prod', limit: '1000' });
    expect(prod81.items.length).toBeGreaterThan(0);
    expect(prod81.items.every((f) => f.version === '8.1' && f.type === 'Prod')).toBe(true);
    const fiber = await files({ package: 'Fiber', limit: '1000' });
    expect(fiber.items.every((f) => f.package === 'Fiber')).toBe(true);
    const lct = await files({ lctOnly: 'true', limit: '1000' });
    expect(lct.items.every((f) => f.addedBy === 'lct2' && f.isLct)).toBe(true);
    const search = await files({ search: 'custom_', limit: '1000' });
    expect(search.items.length).toBeGreaterThan(0);
    expect(search.items.every((f) => f.name.toLowerCase().includes('custom_'))).toBe(true);
    const byName = await files({ sortBy: 'name', sortDirection: 'Ascending', limit: '1000' });
    const names = byName.items.map((f) => f.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('keeps only the newest file of each package and type with latestOnly, within the other filters', async () => {
    const all = (await files({ version: '8.1', limit: '1000' })).items;
    const latest = (await files({ version: '8.1', latestOnly: 'true', limit: '1000' })).items;
    const groups = new Set(all.map((f) => `${f.package}/${f.type}`));
    expect(latest).toHaveLength(groups.size);
    for (const f of latest) {
      const newest = all.filter((o) => o.package === f.package && o.type === f.type).sort((a, b) => b.date.localeCompare(a.date))[0]!;
      expect(f.date).toBe(newest.date);
    }
  });

  it('hides files dated more than a year ago with hideOld and answers only the files named by ids', async () => {
    const all = (await files({ limit: '1000' })).items;
    const cutoff = Date.now() - LIBRARY_OLD_FILE_DAYS * 86_400_000;
    const old = all.filter((f) => Date.parse(f.date) < cutoff);
    expect(old.length).toBeGreaterThan(0);
    const recent = (await files({ hideOld: 'true', limit: '1000' })).items;
    expect(recent.map((f) => f.id).sort()).toEqual(all.filter((f) => !old.includes(f)).map((f) => f.id).sort());
    expect((await files({ hideOld: 'false', limit: '1000' })).totalItems).toBe(all.length);

    const picked = [all[3]!.id, all[0]!.id, old[0]!.id];
    const byIds = await files({ ids: picked.join(','), limit: '1000' });
    expect(byIds.items.map((f) => f.id).sort()).toEqual([...picked].sort());
    expect((await files({ ids: picked.join(','), hideOld: 'true', limit: '1000' })).items.map((f) => f.id)).not.toContain(old[0]!.id);
    expect(fieldErrors(await t.call({ method: 'GET', url: '/library/files', as: 'viewer', query: { ids: '1,x' } }))[0]).toMatch(/^ids/);
  });

  it('lists package names and sample data files; answers 400 for bad filters', async () => {
    expect(await get<string[]>('/library/packages')).toEqual(['Cabling', 'Core', 'DataCenter', 'Fiber', 'Network', 'Power', 'Security', 'Telecom']);
    expect(await get<string[]>('/library/sample-data-files')).toEqual(expect.arrayContaining(['campus-demo.zip']));
    expect(fieldErrors(await t.call({ method: 'GET', url: '/library/files', as: 'viewer', query: { type: 'Beta', sortBy: 'size' } })).map((e) => e.split(':')[0])).toEqual(['type', 'sortBy']);
  });
});
