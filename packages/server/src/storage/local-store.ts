/**
 * The object store on a local folder (DESIGN §13, the default: `DATA_DIR/objects`).
 *
 * Layout under the root folder:
 * - `data/<key>`: the object's bytes;
 * - `meta/<key>.json`: `{contentType, storageClass}`; absent means
 *   `application/octet-stream`, Standard;
 * - `tmp/`: files being written. Each write goes to a new file in `tmp/` and is
 *   renamed into place (atomic on one file system), so that a reader never sees
 *   half an object and a process killed mid-write leaves only a file in `tmp/`
 *   (never listed; known limitation: nothing sweeps it).
 *
 * `put` writes the metadata before the bytes and `delete` removes the bytes
 * before the metadata: an object is its `data/` file, and a `meta/` file without
 * one is ignored, so every crash point leaves either the old object or the new
 * one. Empty folders left by `delete` are kept (harmless, and removing them races
 * a concurrent `put` into the same folder).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  assertObjectKey,
  assertObjectPrefix,
  ObjectInGlacierError,
  ObjectNotFoundError,
  type ObjectInfo,
  type ObjectListing,
  type ObjectStore,
  type StorageClass,
} from './object-store.js';

interface Meta {
  contentType: string;
  storageClass: StorageClass;
}

const DEFAULT_META: Meta = { contentType: 'application/octet-stream', storageClass: 'Standard' };

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** The local-folder object store rooted at `root` (created on first write). */
export function createLocalObjectStore({ root }: { root: string }): ObjectStore {
  const dataPath = (key: string) => join(root, 'data', ...key.split('/'));
  const metaPath = (key: string) => `${join(root, 'meta', ...key.split('/'))}.json`;

  async function writeAtomically(path: string, bytes: Uint8Array | string): Promise<void> {
    const tmpDir = join(root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomBytes(12).toString('hex'));
    await writeFile(tmp, bytes);
    await mkdir(dirname(path), { recursive: true });
    await rename(tmp, path);
  }

  async function readMeta(key: string): Promise<Meta> {
    try {
      return { ...DEFAULT_META, ...(JSON.parse(await readFile(metaPath(key), 'utf8')) as Partial<Meta>) };
    } catch (err) {
      if (isMissing(err)) return DEFAULT_META;
      throw err;
    }
  }

  async function statData(key: string) {
    try {
      const s = await stat(dataPath(key));
      return s.isFile() ? s : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function head(key: string): Promise<ObjectInfo | null> {
    assertObjectKey(key);
    const s = await statData(key);
    if (!s) return null;
    const meta = await readMeta(key);
    return { key, size: s.size, lastModified: s.mtime, storageClass: meta.storageClass, contentType: meta.contentType };
  }

  /** Every file under `dir`, as keys relative to the data folder. */
  async function walk(dir: string, out: ObjectListing[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, out);
      else if (entry.isFile()) {
        const s = await stat(path).catch((err: unknown) => (isMissing(err) ? null : Promise.reject(err)));
        if (s) out.push({ key: relative(join(root, 'data'), path).split(sep).join('/'), size: s.size, lastModified: s.mtime });
      }
    }
  }

  return {
    kind: 'local',
    location: root,

    async put(key, body, opts = {}) {
      assertObjectKey(key);
      const meta: Meta = { contentType: opts.contentType ?? DEFAULT_META.contentType, storageClass: opts.storageClass ?? 'Standard' };
      await writeAtomically(metaPath(key), JSON.stringify(meta));
      await writeAtomically(dataPath(key), body);
    },

    async get(key) {
      const info = await head(key);
      if (!info) throw new ObjectNotFoundError(key);
      if (info.storageClass === 'Glacier') throw new ObjectInGlacierError(key);
      try {
        return new Uint8Array(await readFile(dataPath(key)));
      } catch (err) {
        // Deleted between the head and the read.
        if (isMissing(err)) throw new ObjectNotFoundError(key);
        throw err;
      }
    },

    head,

    async exists(key) {
      assertObjectKey(key);
      return (await statData(key)) !== null;
    },

    async list(prefix) {
      assertObjectPrefix(prefix);
      // Walk only the deepest folder the prefix names whole; filter the rest by string.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      const out: ObjectListing[] = [];
      await walk(join(root, 'data', ...folder.split('/').filter(Boolean)), out);
      return out.filter((o) => o.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    async delete(key) {
      assertObjectKey(key);
      await rm(dataPath(key), { force: true });
      await rm(metaPath(key), { force: true });
    },

    async setStorageClass(key, storageClass) {
      const info = await head(key);
      if (!info) throw new ObjectNotFoundError(key);
      await writeAtomically(metaPath(key), JSON.stringify({ contentType: info.contentType, storageClass } satisfies Meta));
    },
  };
}
