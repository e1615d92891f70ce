/**
 * The object store the process uses (DESIGN §13): the local folder of
 * `config.objectStore` by default, the S3 API when `S3_URL` is set. See
 * `README.md` beside this file for what lives in the store and what in the database.
 */
import type { ObjectStoreConfig } from '../config.js';
import { createLocalObjectStore } from './local-store.js';
import type { ObjectStore } from './object-store.js';
import { createS3ObjectStore } from './s3-store.js';

export * from './object-store.js';

/** Builds the configured object store; no I/O happens until its first call. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  if (config.kind === 'local') return createLocalObjectStore({ root: config.root });
  return createS3ObjectStore(config);
}
