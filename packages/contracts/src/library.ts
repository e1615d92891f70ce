/**
 * Library Manager calls (spec 3 §2.6, §5, §7 Library): the cloud library files
 * not yet known, syncing chosen ones into the library, and deleting library
 * files with their objects (DESIGN §13). The library file itself is
 * `ZLibraryFile` (`catalogues.ts`).
 */
import { z } from 'zod';
import { ZId, zCommaList } from './common.js';
import { LIBRARY_FILE_TYPES, ZLibraryFile } from './catalogues.js';

/** Most files one sync or one batch delete takes. */
export const MAX_LIBRARY_BATCH = 200;
/** Width of the Sync library files dialog, px (spec 3 §9). */
export const LIBRARY_SYNC_DIALOG_WIDTH = 850;
/** The Library Manager table's height is the window's minus this, px (spec 3 §2.6). */
export const LIBRARY_TABLE_HEIGHT_OFFSET = 300;

/**
 * A file of the cloud library (a folder of the object store) that no library
 * file has yet, matched by `url`. `size` in bytes.
 */
export const ZCloudLibraryFile = z.object({
  name: z.string(),
  url: z.string(),
  package: z.string(),
  type: z.enum(LIBRARY_FILE_TYPES),
  version: z.string(),
  size: z.number().int(),
  lastModified: z.string(),
});
export type TCloudLibraryFile = z.infer<typeof ZCloudLibraryFile>;
export const ZCloudLibraryFilesResponse = z.array(ZCloudLibraryFile);

/** `POST /library/files/sync`: the urls of the cloud files to import (1 to {@link MAX_LIBRARY_BATCH}). */
export const ZSyncLibraryFilesRequest = z.object({
  urls: z.array(z.string().min(1).max(1000)).min(1, 'Choose at least one file').max(MAX_LIBRARY_BATCH),
});
export type TSyncLibraryFilesRequest = z.infer<typeof ZSyncLibraryFilesRequest>;
/** The library files the sync made, in the order of the request. */
export const ZSyncLibraryFilesResponse = z.array(ZLibraryFile);

/** `DELETE /library/files/batch?ids=1,2,3` (spec 3 §7 Library): 1 to {@link MAX_LIBRARY_BATCH} ids. */
export const ZDeleteLibraryFilesQuery = z.object({
  ids: zCommaList(ZId)
    .refine((ids) => ids.length >= 1, 'At least one id')
    .refine((ids) => ids.length <= MAX_LIBRARY_BATCH, `At most ${MAX_LIBRARY_BATCH} ids`),
});
/** What a delete removed: the ids of the library files (their objects are gone from the store too). */
export const ZDeleteLibraryFilesResponse = z.object({ deleted: z.array(z.number().int()) });
export type TDeleteLibraryFilesResponse = z.infer<typeof ZDeleteLibraryFilesResponse>;
