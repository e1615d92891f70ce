/**
 * The Library Manager's rules (spec 3 §2.6, §5, §7 Library; DESIGN §13):
 *
 * - `cloudFiles`: the files of the cloud library (the `cloud-library/` folder of
 *   the object store, `library-objects.ts`) that no library file has yet,
 *   matched by url, by name.
 * - `sync`: imports chosen cloud files: copies each object into the library's
 *   folder first, then inserts the rows (added by the caller, dated now) and the
 *   audit activity `SyncLibraryFiles` in one transaction, so a row always has its
 *   object. 422 for a url not in the cloud library (or its object in Glacier),
 *   409 for one already in the library (nothing imported then).
 * - `remove`: deletes library files and their objects: 404 naming unknown ids,
 *   409 naming the accounts and images that still use a file; otherwise the rows
 *   and the audit activity `DeleteLibraryFiles` commit, then the objects are
 *   deleted from the store.
 *
 * Known limitations: the cloud library is listed on each call (no cache); if
 * the store fails after the rows are deleted, the objects stay as unreferenced
 * garbage (the request answers 500), as the storage README's invariant 4 allows.
 * Two syncs of one file are serialised; the loser gets 409. A cloud object in
 * Glacier, or gone between the listing and the copy, is a 422 naming it.
 */
import {
  CLASS_CUSTOMER_PRODUCTION,
  type TAuditChange,
  type TCloudLibraryFile,
  type TDeleteLibraryFilesResponse,
  type TLibraryFile,
} from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hasCustomerProductionAccess, type Principal } from '../../auth/principal.js';
import { ObjectInGlacierError, ObjectNotFoundError, type ObjectStore } from '../../storage/object-store.js';
import { conflict, notFound, unprocessable } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { CLOUD_LIBRARY_PREFIX, libraryFileUrl, libraryObjectKey, parseCloudLibraryKey, type LibraryFileIdentity } from './library-objects.js';
import * as repo from './library.repository.js';

export interface LibraryService {
  /** Cloud library files not yet in the library, by name then url. */
  cloudFiles(): Promise<TCloudLibraryFile[]>;
  /** Imports the cloud files of `urls` (module docstring); answers the new library files in request order. */
  sync(opts: { principal: Principal; urls: string[] }): Promise<TLibraryFile[]>;
  /** Deletes the library files of `ids` and their objects (module docstring). */
  remove(opts: { principal: Principal; ids: number[] }): Promise<TDeleteLibraryFilesResponse>;
}

const MIME_ZIP = 'application/zip';

/** Field-level changes of a file created (`to` its values) or deleted (`from` them). */
function fileChanges(f: LibraryFileIdentity & { url: string; inS3: boolean }, created: boolean): TAuditChange[] {
  const values = { name: f.name, url: f.url, package: f.package, type: f.type, version: f.version, inS3: f.inS3 };
  return Object.entries(values).map(([propertyName, value]) => ({
    entityName: 'LibraryFile',
    propertyName,
    oldValue: created ? null : value,
    newValue: created ? value : null,
  }));
}

/** "a, b, c and 2 more". */
function listed(names: string[], max = 5): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

export function createLibraryService({ db, audit, store }: { db: Db; audit: AuditService; store: ObjectStore }): LibraryService {
  /** Every well-formed file of the cloud library, keyed by url. */
  async function cloudLibrary(): Promise<Map<string, TCloudLibraryFile & { key: string }>> {
    const byUrl = new Map<string, TCloudLibraryFile & { key: string }>();
    for (const object of await store.list(CLOUD_LIBRARY_PREFIX)) {
      const file = parseCloudLibraryKey(object.key);
      if (!file) continue;
      const url = libraryFileUrl(file);
      byUrl.set(url, { ...file, url, size: object.size, lastModified: object.lastModified.toISOString(), key: object.key });
    }
    return byUrl;
  }

  return {
    async cloudFiles() {
      const cloud = await cloudLibrary();
      const known = await repo.selectKnownUrls(db, [...cloud.keys()]);
      return [...cloud.values()]
        .filter((f) => !known.has(f.url))
        .map(({ key: _key, ...f }) => f)
        .sort((a, b) => a.name.localeCompare(b.name) || a.url.localeCompare(b.url));
    },

    async sync({ principal, urls }) {
      const wanted = [...new Set(urls)];
      const cloud = await cloudLibrary();
      const missing = wanted.filter((u) => !cloud.has(u));
      if (missing.length > 0) throw unprocessable(`Not in the cloud library: ${listed(missing)}`);
      const files = wanted.map((u) => cloud.get(u)!);
      const alreadyKnown = (known: Set<string>) => {
        if (known.size > 0) throw conflict(`Already in the library: ${listed(files.filter((f) => known.has(f.url)).map((f) => f.name))}`);
      };
      alreadyKnown(await repo.selectKnownUrls(db, wanted));
      // Objects first (a row always has its object); a retry rewrites the same keys.
      for (const f of files) {
        const bytes = await store.get(f.key).catch((err: unknown) => {
          if (err instanceof ObjectInGlacierError) throw unprocessable(`${f.name} is in Glacier in the cloud library: restore it first`);
          if (err instanceof ObjectNotFoundError) throw unprocessable(`Not in the cloud library: ${f.name}`);
          throw err;
        });
        await store.put(libraryObjectKey(f), bytes, { contentType: MIME_ZIP });
      }
      return db.transaction(async (tx) => {
        await repo.lockLibrarySync(tx);
        alreadyKnown(await repo.selectKnownUrls(tx, wanted));
        const now = new Date();
        const rows = await repo.insertLibraryFiles(
          tx,
          files.map((f) => ({ name: f.name, url: f.url, package: f.package, type: f.type, version: f.version, inS3: true, addedBy: principal.username, date: now })),
        );
        await audit.record(tx, {
          action: 'SyncLibraryFiles',
          user: principal.username,
          params: { files: rows.map((r) => ({ id: r.id, name: r.name, url: r.url })) },
          changes: rows.flatMap((r) => fileChanges({ ...r, type: r.type as TLibraryFile['type'] }, true)),
        });
        const byUrl = new Map(rows.map((r) => [r.url, r]));
        return files.map((f) => repo.libraryFileJson(byUrl.get(f.url)!));
      });
    },

    async remove({ principal, ids }) {
      const wanted = [...new Set(ids)];
      const deleted = await db.transaction(async (tx) => {
        const rows = await repo.selectLibraryFilesForUpdate(tx, wanted);
        const found = new Set(rows.map((r) => r.id));
        const unknown = wanted.filter((id) => !found.has(id));
        if (unknown.length > 0) throw notFound(`Library file ${unknown.join(', ')}`);
        const users = await repo.selectLibraryFileUsers(tx, wanted);
        if (users.length > 0) {
          // Names of Customer Production accounts only for those who may see them (DESIGN §5).
          const visible = hasCustomerProductionAccess(principal);
          const reasons = rows
            .map((r) => {
              const of = users.filter((u) => u.fileId === r.id);
              if (of.length === 0) return null;
              const accounts = of.filter((u) => u.kind === 'account');
              const named = accounts.filter((u) => visible || u.classId !== CLASS_CUSTOMER_PRODUCTION).map((u) => u.name);
              const hidden = accounts.length - named.length;
              const images = of.filter((u) => u.kind === 'image').map((u) => u.name);
              const parts = [
                named.length > 0 ? `accounts ${listed(named)}` : null,
                hidden > 0 ? `${hidden} other account(s)` : null,
                images.length > 0 ? `images ${listed(images)}` : null,
              ].filter(Boolean);
              return `${r.name} is used by ${parts.join(' and ')}`;
            })
            .filter(Boolean);
          throw conflict(`Library file(s) still in use, nothing deleted: ${reasons.join('; ')}`);
        }
        await repo.deleteLibraryFileRows(tx, wanted);
        await audit.record(tx, {
          action: 'DeleteLibraryFiles',
          user: principal.username,
          params: { files: rows.map((r) => ({ id: r.id, name: r.name, url: r.url })) },
          changes: rows.flatMap((r) => fileChanges({ ...r, type: r.type as TLibraryFile['type'] }, false)),
        });
        return rows;
      });
      for (const r of deleted) await store.delete(libraryObjectKey({ ...r, type: r.type as TLibraryFile['type'] }));
      return { deleted: deleted.map((r) => r.id) };
    },
  };
}
