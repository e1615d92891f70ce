/**
 * The object store on the S3 API (DESIGN §13; used when `S3_URL` is set): AWS S3
 * or any S3-compatible server (MinIO, Ceph, s3rver in the tests). The bucket must
 * exist; this store never creates one.
 *
 * Storage classes map to S3's `STANDARD` and `GLACIER`. `setStorageClass` copies
 * the object onto itself with the new class, re-sending its media type and user
 * metadata (`MetadataDirective: REPLACE`, which every S3-compatible server
 * accepts for a copy onto itself). `get` refuses a Glacier object with
 * {@link ObjectInGlacierError}: real S3 answers `InvalidObjectState`, and servers
 * that do not emulate Glacier answer the bytes with the class in a header, which
 * is checked too, so both behave as the local store does.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type StorageClass as S3StorageClass,
} from '@aws-sdk/client-s3';
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

/** Connection settings of the S3 store (config `S3_*`, see config.ts). */
export interface S3StoreOptions {
  /** Endpoint URL, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  /** Static credentials; when absent the SDK's default chain (AWS_* variables, instance role) is used. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style URLs (`endpoint/bucket/key`), as most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Keys per ListObjectsV2 page (S3's default and maximum: 1000); smaller in tests to walk the continuation. */
  listPageSize?: number;
}

const toS3Class = (c: StorageClass): S3StorageClass => (c === 'Glacier' ? 'GLACIER' : 'STANDARD');
/** S3 leaves the class out for STANDARD; the deep-archive classes count as Glacier too. */
const fromS3Class = (c: string | undefined): StorageClass => (c && /GLACIER|DEEP_ARCHIVE/.test(c) ? 'Glacier' : 'Standard');

const statusOf = (err: unknown) => (err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined);
const isNotFound = (err: unknown) => statusOf(err) === 404 || (err as { name?: string }).name === 'NoSuchKey' || (err as { name?: string }).name === 'NotFound';

/** The S3 object store (module docstring). */
export function createS3ObjectStore(opts: S3StoreOptions): ObjectStore & { client: S3Client } {
  const client = new S3Client({
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: opts.forcePathStyle,
    credentials: opts.credentials,
  });
  const Bucket = opts.bucket;

  async function head(key: string): Promise<ObjectInfo | null> {
    assertObjectKey(key);
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return {
        key,
        size: out.ContentLength ?? 0,
        lastModified: out.LastModified ?? new Date(0),
        storageClass: fromS3Class(out.StorageClass),
        contentType: out.ContentType ?? 'application/octet-stream',
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  return {
    kind: 's3',
    location: `s3://${opts.bucket} at ${opts.endpoint}`,
    client,

    async put(key, body, putOpts = {}) {
      assertObjectKey(key);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: putOpts.contentType ?? 'application/octet-stream',
          StorageClass: toS3Class(putOpts.storageClass ?? 'Standard'),
        }),
      );
    },

    async get(key) {
      assertObjectKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (fromS3Class(out.StorageClass) === 'Glacier' && !out.Restore) {
          await out.Body?.transformToByteArray().catch(() => undefined); // drain the connection
          throw new ObjectInGlacierError(key);
        }
        if (!out.Body) throw new ObjectNotFoundError(key);
        return await out.Body.transformToByteArray();
      } catch (err) {
        if (err instanceof ObjectInGlacierError || err instanceof ObjectNotFoundError) throw err;
        if ((err as { name?: string }).name === 'InvalidObjectState') throw new ObjectInGlacierError(key);
        if (isNotFound(err)) throw new ObjectNotFoundError(key);
        throw err;
      }
    },

    head,

    async exists(key) {
      return (await head(key)) !== null;
    },

    async list(prefix) {
      assertObjectPrefix(prefix);
      const out: ObjectListing[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken, MaxKeys: opts.listPageSize }));
        for (const o of page.Contents ?? []) {
          if (o.Key !== undefined) out.push({ key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      // S3 lists in UTF-8 byte order; keys are ASCII, so this is the same order as the local store's.
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    async delete(key) {
      assertObjectKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async setStorageClass(key, storageClass) {
      assertObjectKey(key);
      let current;
      try {
        current = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (isNotFound(err)) throw new ObjectNotFoundError(key);
        throw err;
      }
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: key,
          CopySource: `${Bucket}/${key}`,
          MetadataDirective: 'REPLACE',
          ContentType: current.ContentType,
          Metadata: current.Metadata,
          StorageClass: toS3Class(storageClass),
        }),
      );
    },
  };
}
