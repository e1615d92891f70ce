/**
 * Catalogue reads of the account forms (spec 1 §7 Lookups, spec 3 §3, §7 Software,
 * Cloud, Library): customers, features, reporting categories, regions, instance
 * types, IRMN versions, software branches, commits and builds, library files,
 * packages and sample data files; and marking a commit breaking.
 */
import { z } from 'zod';
import { MAX_SEARCH_LENGTH, ZId, ZPageQuery, ZQueryFlag, ZSortDirection, zCommaList } from './common.js';
import { ZConfigComponent } from './account-sections.js';

/** Commits per page of the Select Version modal (spec 3 §9). */
export const COMMITS_PAGE_SIZE = 10;
/** Library files added by this user count as LCT (spec 1 §2 Select Library File dialog). */
export const LCT_USER = 'lct2';
export const LIBRARY_FILE_TYPES = ['Dev', 'Prod', 'Custom'] as const;
/**
 * Age past which a library file is "old" and hidden by the Select Library File
 * dialog's "hide old files" filter (spec 1 §2, on by default), in days. The
 * specification names the filter without defining "old"; a file dated more than a
 * year ago is old.
 */
export const LIBRARY_OLD_FILE_DAYS = 365;
export const BUILD_TYPES = ['Daily', 'Release'] as const;
export const IRMN_VERSION_STATUSES = ['InDevelopment', 'Planned', 'Released'] as const;

export const ZCustomersResponse = z.array(z.string());

export const ZLookupItem = z.object({ id: z.number().int(), name: z.string() });
export type TLookupItem = z.infer<typeof ZLookupItem>;
export const ZLookupResponse = z.array(ZLookupItem);

export const ZRegion = z.object({ id: z.number().int(), name: z.string(), cloudCode: z.string() });
export type TRegion = z.infer<typeof ZRegion>;
export const ZRegionsResponse = z.array(ZRegion);

/** Instance type (spec 1 §3): storage GB, memory GB (Redis only), cost in cloud credits per hour. */
export const ZInstanceType = z.object({
  id: z.number().int(),
  name: z.string(),
  cloudCode: z.string(),
  storageSize: z.number().int(),
  memorySize: z.number().nullable(),
  cloudCreditCost: z.number(),
});
export type TInstanceType = z.infer<typeof ZInstanceType>;
export const ZInstanceTypesResponse = z.array(ZInstanceType);

export const ZIrmnVersion = z.object({
  id: z.number().int(),
  name: z.string(),
  default: z.boolean(),
  status: z.enum(IRMN_VERSION_STATUSES),
});
export type TIrmnVersion = z.infer<typeof ZIrmnVersion>;
export const ZIrmnVersionsResponse = z.array(ZIrmnVersion);

/** A branch (spec 3 §3); branches whose repository is missing cannot be chosen for Test Latest Code. */
export const ZBranch = z.object({ id: z.number().int(), name: z.string(), repo: z.string(), repoMissing: z.boolean() });
export type TBranch = z.infer<typeof ZBranch>;
export const ZBranchesResponse = z.array(ZBranch);

export const ZSoftwareParams = z.object({ software: ZConfigComponent });

/** A commit (spec 3 §3), with its branch name beside its branch id. */
export const ZCommit = z.object({
  shortHash: z.string(),
  fullHash: z.string(),
  branchId: z.number().int(),
  branch: z.string(),
  author: z.string(),
  isBreaking: z.boolean(),
  breakingMsg: z.string().nullable(),
  tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
  builds: z.array(z.object({ name: z.string(), type: z.string(), hash: z.string() })),
  timestamp: z.string(),
  message: z.string(),
});
export type TCommit = z.infer<typeof ZCommit>;

/**
 * `GET /software/{software}/commits` (spec 3 §2.1, §7): newest first; `branch` is a
 * branch name; `search` matches message, author, hash prefix and tag names.
 */
export const ZListCommitsQuery = z.object({
  branch: z.string().max(200).optional(),
  tagsOnly: ZQueryFlag.optional(),
  buildsOnly: ZQueryFlag.optional(),
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  startIndex: ZPageQuery.shape.startIndex,
  limit: z.coerce.number().int().min(1).max(1000).default(COMMITS_PAGE_SIZE),
});
export type TListCommitsQuery = z.input<typeof ZListCommitsQuery>;
/** Commits page: `page` is 1-based (startIndex / limit + 1). */
export const ZListCommitsResponse = z.object({
  items: z.array(ZCommit),
  totalItems: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TListCommitsResponse = z.infer<typeof ZListCommitsResponse>;

export const ZCommitParams = z.object({ software: ZConfigComponent, hash: z.string().min(4).max(64) });
/** `PUT /software/{software}/commits/{hash}/breaking`. */
export const ZSetCommitBreakingRequest = z.object({
  isBreaking: z.boolean(),
  breakingMsg: z.string().trim().max(1000).nullable().optional(),
});
export type TSetCommitBreakingRequest = z.input<typeof ZSetCommitBreakingRequest>;

/** A build (spec 3 §3): size in bytes. */
export const ZBuild = z.object({
  name: z.string(),
  url: z.string(),
  lastModified: z.string(),
  size: z.number().int(),
  hash: z.string(),
  type: z.enum(BUILD_TYPES),
});
export type TBuild = z.infer<typeof ZBuild>;
export const ZListBuildsQuery = z.object({ type: z.enum(BUILD_TYPES).optional() });
export const ZBuildsResponse = z.array(ZBuild);

/** A library file (spec 3 §3); `isLct` when added by {@link LCT_USER}. */
export const ZLibraryFile = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  package: z.string(),
  type: z.enum(LIBRARY_FILE_TYPES),
  version: z.string(),
  inS3: z.boolean(),
  addedBy: z.string(),
  isLct: z.boolean(),
  date: z.string(),
});
export type TLibraryFile = z.infer<typeof ZLibraryFile>;

export const LIBRARY_SORT_FIELDS = ['name', 'package', 'type', 'version', 'addedBy', 'date'] as const;

/**
 * `GET /library/files` (spec 1 §2 Select Library File dialog): search over name and
 * package; filters version, type, package, LCT only, latest only (the newest file
 * of each package and type), hide old (dated more than {@link LIBRARY_OLD_FILE_DAYS}
 * days ago) and `ids` (a comma list: those files only, e.g. an account's current
 * files); sorted by `sortBy` (default date, newest first).
 */
export const ZListLibraryFilesQuery = ZPageQuery.extend({
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  ids: zCommaList(ZId).refine((ids) => ids.length <= 200, 'At most 200 ids').optional(),
  hideOld: ZQueryFlag.optional(),
  version: z.string().max(50).optional(),
  type: z.enum(LIBRARY_FILE_TYPES).optional(),
  package: z.string().max(200).optional(),
  lctOnly: ZQueryFlag.optional(),
  latestOnly: ZQueryFlag.optional(),
  sortBy: z.enum(LIBRARY_SORT_FIELDS).default('date'),
  sortDirection: ZSortDirection.default('Descending'),
});
export type TListLibraryFilesQuery = z.input<typeof ZListLibraryFilesQuery>;
export const ZListLibraryFilesResponse = z.object({ items: z.array(ZLibraryFile), totalItems: z.number().int() });
export type TListLibraryFilesResponse = z.infer<typeof ZListLibraryFilesResponse>;

export const ZStringListResponse = z.array(z.string());
