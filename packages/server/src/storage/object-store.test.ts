/**
 * One behaviour suite for both object stores (DESIGN §13, issue 10 "S3 and local
 * storage behave the same"): the local folder, and the S3 store against an
 * S3-compatible server (s3rver, from npm) that this file starts on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createLocalObjectStore } from './local-store.js';
import { createS3ObjectStore } from './s3-store.js';
import { startS3TestServer, type S3TestServer } from '../../test/s3-server.js';
import { InvalidObjectKeyError, ObjectInGlacierError, ObjectNotFoundError, keySegment, type ObjectStore } from './object-store.js';

const folders: string[] = [];
let s3: S3TestServer;

beforeAll(async () => {
  s3 = await startS3TestServer();
});

afterAll(async () => {
  await s3?.close();
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

const implementations: { name: string; make: () => Promise<ObjectStore> }[] = [
  {
    name: 'local folder',
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'fleet-objects-'));
      folders.push(root);
      return createLocalObjectStore({ root });
    },
  },
  {
    name: 'S3 (s3rver)',
    make: async () =>
      createS3ObjectStore({
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        region: 'us-east-1',
        credentials: s3.credentials,
        forcePathStyle: true,
        // Small pages, so that every listing of more than 3 objects walks the continuation.
        listPageSize: 3,
      }),
  },
];

let run = 0;

describe.each(implementations)('object store: $name', ({ make }) => {
  let store: ObjectStore;
  // Each test writes under its own prefix, so that the S3 bucket shared by the tests never mixes them.
  let p: string;
  beforeAll(async () => {
    store = await make();
  });
  const fresh = () => {
    run += 1;
    p = `t${run}`;
    return p;
  };

  it('puts, heads and gets an object byte for byte; put replaces it', async () => {
    fresh();
    const all = new Uint8Array(256 * 4).map((_, i) => i % 256);
    await store.put(`${p}/a/b.bin`, all, { contentType: 'application/gzip' });
    expect(await store.get(`${p}/a/b.bin`)).toEqual(all);
    const info = await store.head(`${p}/a/b.bin`);
    expect(info).toMatchObject({ key: `${p}/a/b.bin`, size: 1024, storageClass: 'Standard', contentType: 'application/gzip' });
    expect(Math.abs(info!.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await store.exists(`${p}/a/b.bin`)).toBe(true);

    await store.put(`${p}/a/b.bin`, bytes('second'));
    expect(text(await store.get(`${p}/a/b.bin`))).toBe('second');
    expect(await store.head(`${p}/a/b.bin`)).toMatchObject({ size: 6, contentType: 'application/octet-stream' });
  });

  it('keeps an object of a megabyte and an empty one', async () => {
    fresh();
    const big = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) % 251);
    await store.put(`${p}/big`, big);
    await store.put(`${p}/empty`, new Uint8Array(0));
    // Buffer.equals: a deep equal of a megabyte, element by element, takes seconds.
    expect(Buffer.from(await store.get(`${p}/big`)).equals(big)).toBe(true);
    expect(await store.get(`${p}/empty`)).toEqual(new Uint8Array(0));
    expect(await store.head(`${p}/empty`)).toMatchObject({ size: 0 });
  });

  it('answers a missing object: get throws ObjectNotFoundError, head null, exists false, delete succeeds', async () => {
    fresh();
    await expect(store.get(`${p}/nothing`)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await store.head(`${p}/nothing`)).toBeNull();
    expect(await store.exists(`${p}/nothing`)).toBe(false);
    await expect(store.delete(`${p}/nothing`)).resolves.toBeUndefined();
    await expect(store.setStorageClass(`${p}/nothing`, 'Glacier')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('deletes an object, and deleting it again is not an error', async () => {
    fresh();
    await store.put(`${p}/x/one`, bytes('1'));
    await store.put(`${p}/x/two`, bytes('2'));
    await store.delete(`${p}/x/one`);
    await store.delete(`${p}/x/one`);
    expect(await store.exists(`${p}/x/one`)).toBe(false);
    expect((await store.list(`${p}/`)).map((o) => o.key)).toEqual([`${p}/x/two`]);
  });

  it('lists by prefix, whole folders or the middle of a segment, by key, with sizes', async () => {
    fresh();
    const keys = [`${p}/backups/12/3/a.gz`, `${p}/backups/12/34/b.gz`, `${p}/backups/12/34/c.gz`, `${p}/backups/120/1/d.gz`, `${p}/samples/e.zip`];
    for (const [i, key] of [...keys].reverse().entries()) await store.put(key, bytes('x'.repeat(i + 1)));
    expect((await store.list(`${p}/backups/12/`)).map((o) => o.key)).toEqual(keys.slice(0, 3));
    expect((await store.list(`${p}/backups/12/3`)).map((o) => o.key)).toEqual(keys.slice(0, 3));
    expect((await store.list(`${p}/backups/12/34/`)).map((o) => o.key)).toEqual(keys.slice(1, 3));
    expect((await store.list(`${p}/backups/12`)).map((o) => o.key)).toEqual(keys.slice(0, 4));
    expect((await store.list(`${p}/`)).map((o) => o.key)).toEqual(keys);
    expect(await store.list(`${p}/nothing/`)).toEqual([]);
    const listed = await store.list(`${p}/samples/`);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ key: `${p}/samples/e.zip`, size: 1 });
    expect(listed[0]!.lastModified).toBeInstanceOf(Date);
    expect((await store.list('')).map((o) => o.key)).toEqual(expect.arrayContaining(keys));
  });

  it('moves an object to Glacier: still listed and headed, not readable until moved back', async () => {
    fresh();
    await store.put(`${p}/old.gz`, bytes('old backup'), { contentType: 'application/gzip' });
    await store.setStorageClass(`${p}/old.gz`, 'Glacier');
    expect(await store.head(`${p}/old.gz`)).toMatchObject({ storageClass: 'Glacier', size: 10, contentType: 'application/gzip' });
    expect(await store.exists(`${p}/old.gz`)).toBe(true);
    await expect(store.get(`${p}/old.gz`)).rejects.toBeInstanceOf(ObjectInGlacierError);
    await expect(store.get(`${p}/old.gz`)).rejects.toThrow(/restore it from Glacier first/);
    expect((await store.list(`${p}/`)).map((o) => o.key)).toEqual([`${p}/old.gz`]);

    await store.setStorageClass(`${p}/old.gz`, 'Standard');
    expect(text(await store.get(`${p}/old.gz`))).toBe('old backup');
    expect(await store.head(`${p}/old.gz`)).toMatchObject({ storageClass: 'Standard', contentType: 'application/gzip' });
  });

  it('puts straight into Glacier, and a put into Standard replaces a Glacier object', async () => {
    fresh();
    await store.put(`${p}/cold`, bytes('cold'), { storageClass: 'Glacier' });
    expect(await store.head(`${p}/cold`)).toMatchObject({ storageClass: 'Glacier' });
    await expect(store.get(`${p}/cold`)).rejects.toBeInstanceOf(ObjectInGlacierError);
    await store.put(`${p}/cold`, bytes('warm'));
    expect(text(await store.get(`${p}/cold`))).toBe('warm');
  });

  it('refuses keys that could leave the store or are malformed, before any I/O', async () => {
    for (const key of ['', '../x', 'a/../b', '/a', 'a//b', 'a/', './a', 'a b', 'a\\b', 'ä', 'a/.', 'x'.repeat(1025)]) {
      await expect(store.put(key, bytes('no')), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.delete(key), key).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    await expect(store.list('../')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(store.list('a//')).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });

  it('lists exactly the keys put under a prefix (property)', async () => {
    // Letters only: s3rver pages in the order of its own file names (key plus a
    // suffix beginning with '.'), so with keys like 'x/a' and 'x/a-1' on two pages it
    // skips one; real S3 pages in key order. The example-based test above has '-' and '.'.
    const segment = fc.constantFrom('a', 'ab', 'b', 'ba');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(segment, segment), { minLength: 0, maxLength: 8, selector: ([dir, file]) => `${dir}/${file}` }), segment, async (pairs, probe) => {
        const base = fresh();
        const keys = pairs.map(([dir, file]) => `${base}/${dir}/${file}`);
        for (const key of keys) await store.put(key, bytes(key));
        const expected = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).sort();
        for (const prefix of [`${base}/`, `${base}/${probe}`, `${base}/${probe}/`]) {
          expect((await store.list(prefix)).map((o) => o.key)).toEqual(expected(prefix));
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe('local folder store', () => {
  it('leaves no temporary file after writes and keeps objects inside its folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fleet-objects-'));
    folders.push(root);
    const store = createLocalObjectStore({ root });
    await store.put('a/b', bytes('1'));
    await store.setStorageClass('a/b', 'Glacier');
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
    expect((await readdir(root)).sort()).toEqual(['data', 'meta', 'tmp']);
  });
});

describe('keySegment', () => {
  it('makes a safe key segment of any file name', () => {
    expect(keySegment('Campus demo (v2).zip')).toBe('Campus-demo-v2-.zip');
    expect(keySegment('../../etc/passwd')).toBe('etc-passwd');
    expect(keySegment('...')).toBe('file');
    expect(keySegment('x'.repeat(300))).toHaveLength(100);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (name) => {
        const segment = keySegment(name);
        expect(segment).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/);
      }),
    );
  });
});
