/**
 * API tests of the Library Manager (spec 3 §2.6, §5, §7 Library; DESIGN §13):
 * the cloud library files not yet known (matched by url), sync copying the
 * objects and adding the files (audited, 409/422 refusals), deleting one or a
 * batch with the objects really gone from the store, 404 and 409 (in use)
 * refusals that delete nothing, the viewer's 403, and the demo seed's objects.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { TCloudLibraryFile, TLibraryFile } from '@fleet/contracts';
import { libraryFiles } from '../../db/schema.js';
import { createLocalObjectStore } from '../../storage/local-store.js';
import type { ObjectStore } from '../../storage/object-store.js';
import { CLOUD_ONLY_LIBRARY_FILES, seedLibraryObjects } from '../../seed/library-files.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities } from '../../../test/account-fixtures.js';
import { cloudLibraryObjectKey, libraryObjectKey } from './library-objects.js';

let t: TestApp;
let store: ObjectStore;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fleet-library-test-'));
  store = createLocalObjectStore({ root });
  t = await startTestApp({ store });
  // The test template is seeded without a store: write the demo's library objects now.
  await seedLibraryObjects(t.database.db, store);
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

const cloudFiles = async (as = 'admin') => {
  const res = await t.call({ method: 'GET', url: '/library/cloud-files', as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TCloudLibraryFile[];
};
const sync = (urls: string[], as = 'admin') => t.call({ method: 'POST', url: '/library/files/sync', as, body: { urls } });
const rowsByName = (name: string) => t.database.db.select().from(libraryFiles).where(eq(libraryFiles.name, name));

describe('GET /library/cloud-files', () => {
  it('lists the cloud library files that no library file has (matched by url), by name', async () => {
    const files = await cloudFiles('viewer');
    expect(files.map((f) => f.name)).toEqual(CLOUD_ONLY_LIBRARY_FILES.map((f) => f.name).sort());
    expect(files[0]).toMatchObject({ name: 'Core_Dev_8.2.2.zip', package: 'Core', type: 'Dev', version: '8.2', url: 'https://library.fleet.example.net/files/Core/Core_Dev_8.2.2.zip' });
    expect(files[0]!.size).toBeGreaterThan(0);
  });
});

describe('POST /library/files/sync', () => {
  it('imports the chosen files: the object copied into the library, the file added by the caller, audited', async () => {
    const [core, fiber] = await cloudFiles();
    const res = await sync([core!.url, fiber!.url], 'operator');
    expect(res.statusCode, res.body).toBe(200);
    const added = res.json() as TLibraryFile[];
    expect(added.map((f) => f.name)).toEqual([core!.name, fiber!.name]);
    expect(added[0]).toMatchObject({ url: core!.url, package: 'Core', type: 'Dev', version: '8.2', inS3: true, addedBy: 'operator', isLct: false });
    expect(Date.parse(added[0]!.date)).toBeGreaterThan(Date.now() - 60_000);
    const key = libraryObjectKey(added[0]!);
    expect((await store.head(key))?.size).toBe(core!.size);

    // Known now: no longer offered, and listed by GET /library/files.
    expect((await cloudFiles()).map((f) => f.url)).not.toContain(core!.url);
    const listed = (await t.call({ method: 'GET', url: '/library/files', as: 'viewer', query: { ids: String(added[0]!.id) } })).json();
    expect(listed.items).toHaveLength(1);

    const [activity] = await activities(t, undefined, 'SyncLibraryFiles');
    expect(activity).toMatchObject({ user: 'operator' });
    expect(activity!.metadata.changes).toEqual(
      expect.arrayContaining([{ entityName: 'LibraryFile', propertyName: 'url', oldValue: null, newValue: core!.url }]),
    );
  });

  it('refuses a url already in the library (409) or not in the cloud library (422), importing nothing', async () => {
    const [next] = await cloudFiles();
    const known = (await t.database.db.select().from(libraryFiles).limit(1))[0]!;
    const dup = await sync([next!.url, known.url]);
    expect(dup.statusCode, dup.body).toBe(409);
    expect(dup.json().detail).toContain(known.name);
    const missing = await sync([next!.url, 'https://library.fleet.example.net/files/Core/Nope.zip']);
    expect(missing.statusCode, missing.body).toBe(422);
    expect(missing.json().detail).toContain('Nope.zip');
    expect(await rowsByName(next!.name)).toEqual([]);
  });

  it('refuses a cloud file in Glacier (422 naming it), importing nothing', async () => {
    const file = { name: 'Telecom_Dev_8.2.9.zip', package: 'Telecom', type: 'Dev', version: '8.2' } as const;
    await store.put(cloudLibraryObjectKey(file), new TextEncoder().encode('cold'), { storageClass: 'Glacier' });
    const url = (await cloudFiles()).find((f) => f.name === file.name)!.url;
    const res = await sync([url]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toContain('Glacier');
    expect(await rowsByName(file.name)).toEqual([]);
    await store.delete(cloudLibraryObjectKey(file));
  });

  it('refuses the viewer (403) and an empty selection (400 naming urls)', async () => {
    const [next] = await cloudFiles();
    expect((await sync([next!.url], 'viewer')).statusCode).toBe(403);
    const empty = await sync([]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].propertyName).toBe('urls');
  });
});

describe('DELETE /library/files/{id} and /library/files/batch', () => {
  it('deletes one file and really deletes its object from the store, audited', async () => {
    const [file] = await rowsByName('Core_Dev_8.2.2.zip');
    const key = libraryObjectKey({ ...file!, type: 'Dev' });
    expect(await store.exists(key)).toBe(true);
    const res = await t.call({ method: 'DELETE', url: `/library/files/${file!.id}`, as: 'operator' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: [file!.id] });
    expect(await rowsByName(file!.name)).toEqual([]);
    expect(await store.exists(key)).toBe(false);
    // Back in the cloud list, since the library no longer knows its url.
    expect((await cloudFiles()).map((f) => f.name)).toContain(file!.name);
    const [activity] = await activities(t, undefined, 'DeleteLibraryFiles');
    expect(activity!.metadata.changes).toEqual(expect.arrayContaining([{ entityName: 'LibraryFile', propertyName: 'name', oldValue: file!.name, newValue: null }]));
  });

  it('deletes a batch (ids a comma list) with their objects', async () => {
    const names = ['Power_Prod_8.1.5.zip', 'Network_Prod_8.1.5.zip'];
    const urls = (await cloudFiles()).filter((f) => names.includes(f.name)).map((f) => f.url);
    const added = (await sync(urls)).json() as TLibraryFile[];
    const keys = added.map((f) => libraryObjectKey(f));
    for (const key of keys) expect(await store.exists(key)).toBe(true);
    const res = await t.call({ method: 'DELETE', url: '/library/files/batch', as: 'admin', query: { ids: added.map((f) => f.id).join(',') } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted.sort()).toEqual(added.map((f) => f.id).sort());
    for (const key of keys) expect(await store.exists(key)).toBe(false);
  });

  it('refuses unknown ids (404) and a file still used by an account (409 naming it), deleting nothing', async () => {
    const [used] = await t.database.db.execute<{ id: number; name: string; accountId: number }>(sql`
      select f.id, f.name, s.account_id as "accountId" from library_files f
      join account_settings s on s.machine_config->'mainLibraryFiles' @> to_jsonb(array[f.id])
      join accounts a on a.id = s.account_id and a.deleted_at is null and a.class_id = 1
      limit 1`).then((r) => r.rows);
    expect(used, 'the demo seed has accounts with library files').toBeDefined();
    const [free] = await rowsByName('Fiber_Dev_8.2.2.zip');
    const conflict = await t.call({ method: 'DELETE', url: '/library/files/batch', as: 'admin', query: { ids: `${free!.id},${used!.id}` } });
    expect(conflict.statusCode, conflict.body).toBe(409);
    expect(conflict.json().detail).toContain(used!.name);
    expect(await rowsByName(free!.name)).toHaveLength(1);
    expect(await store.exists(libraryObjectKey({ ...free!, type: 'Dev' }))).toBe(true);

    const unknown = await t.call({ method: 'DELETE', url: '/library/files/batch', as: 'admin', query: { ids: `${free!.id},2000000000` } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toContain('2000000000');
    expect((await t.call({ method: 'DELETE', url: '/library/files/2000000000', as: 'admin' })).statusCode).toBe(404);
    expect(await rowsByName(free!.name)).toHaveLength(1);
  });

  it('refuses the viewer (403) and bad ids (400 naming ids)', async () => {
    const [free] = await rowsByName('Fiber_Dev_8.2.2.zip');
    expect((await t.call({ method: 'DELETE', url: `/library/files/${free!.id}`, as: 'viewer' })).statusCode).toBe(403);
    for (const ids of ['', 'x', '0', Array.from({ length: 201 }, (_, i) => i + 1).join(',')]) {
      const res = await t.call({ method: 'DELETE', url: '/library/files/batch', as: 'admin', query: { ids } });
      expect(res.statusCode, ids).toBe(400);
      expect(res.json().errors[0].propertyName).toBe('ids');
    }
  });
});
