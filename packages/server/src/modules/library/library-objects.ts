/**
 * Where library files live in the object store (DESIGN §13; spec 3 §2.6).
 *
 * - The **cloud library** is the folder `cloud-library/` of the store: the
 *   library files the build pipeline publishes, keyed
 *   `cloud-library/{type}/{package}/{version}/{name}`, so that a file's type,
 *   package and version are read from its key (the store keeps no other metadata).
 *   The demo seed fills it (`seed/library-files.ts`).
 * - The **library** keeps the bytes of each library file (a `library_files` row)
 *   under `library/{type}/{package}/{version}/{name}`, derived from the row, so
 *   that no key column is needed. Sync copies a cloud object there; deleting a
 *   library file deletes that object.
 *
 * A cloud file and a library file are the same file when their `url`s match
 * (spec 3 §2.6 "matched by url"): {@link libraryFileUrl} gives the url of both.
 */
import { LIBRARY_FILE_TYPES, type TLibraryFile } from '@fleet/contracts';
import { keySegment } from '../../storage/object-store.js';

export const CLOUD_LIBRARY_PREFIX = 'cloud-library/';
export const LIBRARY_PREFIX = 'library/';
/** Where library files are downloaded from (the seed's urls use the same base). */
export const LIBRARY_URL_BASE = 'https://library.fleet.example.net/files';

export interface LibraryFileIdentity {
  name: string;
  package: string;
  type: TLibraryFile['type'];
  version: string;
}

const path = (f: LibraryFileIdentity) => [f.type, f.package, f.version, f.name].map(keySegment).join('/');

/** The object key of a library file's bytes. */
export const libraryObjectKey = (f: LibraryFileIdentity) => `${LIBRARY_PREFIX}${path(f)}`;

/** The object key of a file of the cloud library. */
export const cloudLibraryObjectKey = (f: LibraryFileIdentity) => `${CLOUD_LIBRARY_PREFIX}${path(f)}`;

/** The url of a library file: Custom files under `Custom/`, the others under their package. */
export const libraryFileUrl = (f: LibraryFileIdentity) => `${LIBRARY_URL_BASE}/${f.type === 'Custom' ? 'Custom' : f.package}/${f.name}`;

/** The file a cloud library key names, or null for a key of another shape (left out of the list). */
export function parseCloudLibraryKey(key: string): LibraryFileIdentity | null {
  if (!key.startsWith(CLOUD_LIBRARY_PREFIX)) return null;
  const parts = key.slice(CLOUD_LIBRARY_PREFIX.length).split('/');
  if (parts.length !== 4) return null;
  const [type, pkg, version, name] = parts as [string, string, string, string];
  if (!(LIBRARY_FILE_TYPES as readonly string[]).includes(type)) return null;
  return { type: type as TLibraryFile['type'], package: pkg, version, name };
}
