/**
 * The object store (DESIGN §13): where backup files, sample data files and
 * library files keep their bytes; the database keeps their metadata.
 * Two implementations behave the same (one behaviour suite, `object-store.test.ts`,
 * runs against both): a local folder (`local-store.ts`, the default, under
 * `DATA_DIR/objects`) and the S3 API (`s3-store.ts`, when `S3_URL` is set).
 *
 * Keys are `/`-separated paths of safe segments (letters, digits, `.`, `_`,
 * `-`; no empty, `.` or `..` segment; at most 1024 characters), checked by
 * {@link assertObjectKey} on every call, so that a key can never leave the
 * local folder. Objects are whole byte arrays: the files this product stores
 * are a few KB to a few MB (simulated dumps); streaming is a known limitation.
 */

/** Storage classes of an object (contracts `STORAGE_CLASSES`): Glacier objects cannot be read until restored. */
export type StorageClass = 'Standard' | 'Glacier';

/** What `head` answers about an object. `size` in bytes. */
export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
  storageClass: StorageClass;
  contentType: string;
}

/** One object of a listing. `size` in bytes. (A listing does not carry the storage class: `head` does.) */
export interface ObjectListing {
  key: string;
  size: number;
  lastModified: Date;
}

export interface PutOptions {
  /** Media type kept with the object (default `application/octet-stream`). */
  contentType?: string;
  /** Default Standard. */
  storageClass?: StorageClass;
}

export interface ObjectStore {
  /** `local` or `s3`, for logs and the start-up banner. */
  readonly kind: 'local' | 's3';
  /** Where the objects are: the folder, or `s3://bucket` at the endpoint. */
  readonly location: string;
  /**
   * Writes the object whole, replacing any object of that key. Atomic for a
   * reader: a `get` sees the old bytes or the new ones, never part of them.
   */
  put(key: string, body: Uint8Array, opts?: PutOptions): Promise<void>;
  /**
   * The object's bytes. Throws {@link ObjectNotFoundError} when there is none and
   * {@link ObjectInGlacierError} when it is in Glacier.
   */
  get(key: string): Promise<Uint8Array>;
  /** The object's size, time, storage class and media type, or null when there is none. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Whether the object exists (in any storage class). */
  exists(key: string): Promise<boolean>;
  /**
   * Every object whose key starts with `prefix` (a plain string prefix, not only
   * whole folders), by key ascending. `prefix` may be empty; otherwise it follows
   * the key rules, except that it may end with `/` or in the middle of a segment.
   */
  list(prefix: string): Promise<ObjectListing[]>;
  /** Removes the object; removing one that does not exist is not an error (idempotent). */
  delete(key: string): Promise<void>;
  /**
   * Moves the object to `storageClass` (retention's MoveToGlacier, DESIGN §13).
   * Throws {@link ObjectNotFoundError} when there is none. Known limitation: on
   * real S3 moving a Glacier object back to Standard needs a RestoreObject first
   * (S3 refuses the copy); neither this product nor the local store does that step.
   */
  setStorageClass(key: string, storageClass: StorageClass): Promise<void>;
}

/** There is no object of that key. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No object ${key} in the object store`);
  }
}

/** The object is in Glacier: it must be restored from Glacier before it can be read. */
export class ObjectInGlacierError extends Error {
  constructor(readonly key: string) {
    super(`Object ${key} is in Glacier: restore it from Glacier first`);
  }
}

/** A key or prefix that breaks the key rules (a caller's defect, never user input reaching the store). */
export class InvalidObjectKeyError extends Error {}

const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** Longest key, characters (S3 allows 1024 bytes; keys here are ASCII). */
export const MAX_OBJECT_KEY_LENGTH = 1024;

function checkSegments(value: string, what: string, allowPartialEnd: boolean): void {
  if (value.length > MAX_OBJECT_KEY_LENGTH) throw new InvalidObjectKeyError(`${what} is longer than ${MAX_OBJECT_KEY_LENGTH} characters`);
  const segments = value.split('/');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '' && last && allowPartialEnd) return;
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new InvalidObjectKeyError(`${what} '${value}' has an invalid segment '${segment}' (letters, digits, '.', '_', '-'; not '.' or '..')`);
    }
  });
}

/** Throws {@link InvalidObjectKeyError} unless `key` follows the key rules (module docstring). */
export function assertObjectKey(key: string): void {
  checkSegments(key, 'Object key', false);
}

/** Throws {@link InvalidObjectKeyError} unless `prefix` is empty or a key, or a key's beginning ending in `/`. */
export function assertObjectPrefix(prefix: string): void {
  if (prefix !== '') checkSegments(prefix, 'Object key prefix', true);
}

/**
 * A key segment made from free text (a file name an operator typed): unsafe
 * characters become `-`, at most 100 characters, never empty, `.` or `..`.
 */
export function keySegment(text: string): string {
  const safe = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 100);
  return safe === '' ? 'file' : safe;
}
