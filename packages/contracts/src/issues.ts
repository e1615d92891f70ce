/**
 * Issues (spec 2 §2.5 Issue viewer, §3 Issue and Issue log, §5 tag filter, §7
 * Issues, §8 Update issue, §9; DESIGN §14): problems the engine raised on
 * machines, grouped by fingerprint, with their logs; an operator resolves them.
 */
import { z } from 'zod';
import { ZId, PAGE_QUERY_FIELDS, refineTimeRange, TIME_RANGE_FIELDS, VIEWER_PAGE_SIZE, zPaged, ZSortOrder } from './common.js';

/** Where an issue came from (DESIGN §14). */
export const ISSUE_SOURCES = ['operation', 'panic', 'standby', 'probe', 'server-status', 'task'] as const;
export const ZIssueSource = z.enum(ISSUE_SOURCES);
export type TIssueSource = z.infer<typeof ZIssueSource>;

/** Issue viewer page size: the viewers' one, 20 (issue 24 point 7; spec 2 §9 gave 10). */
export const ISSUES_PAGE_SIZE = VIEWER_PAGE_SIZE;
/** Logs a page of the logs drawer shows (spec 2 §2.5 gives none; the viewer's former 10). */
export const ISSUE_LOGS_PAGE_SIZE = 10;
/** The spec's console fetches issues with limit 100 (spec 2 §7); ours asks one page at a time. */
export const ISSUES_FETCH_LIMIT = 100;
/** Longest tag (issue, log, filter). */
export const ISSUE_TAG_MAX_LENGTH = 60;
/** Most tags one issue keeps (the union of its occurrences' tags). */
export const ISSUE_MAX_TAGS = 20;
/** Most tags a filter takes. */
export const ISSUE_FILTER_MAX_TAGS = 20;
/** Longest description kept. */
export const ISSUE_DESCRIPTION_MAX_LENGTH = 500;
/** Longest log content kept, characters; a longer one is cut and marked incomplete. */
export const ISSUE_LOG_MAX_CONTENT = 8_000;
/** Logs kept per issue: the newest ones (the count keeps counting). */
export const ISSUE_LOG_RETAINED = 100;
/** The delay before a failed Resolved switch is put back (spec 2 §4, §9), ms. */
export const ISSUE_REVERT_DELAY_MS = 500;
/** Toasts of the Resolved switch (spec 2 §8 Update issue). */
export const ISSUE_UPDATE_ERROR = 'Error occurred updating issue';
export const ISSUE_UPDATE_SUCCESS = 'Issue updated';

const ZTag = z.string().trim().min(1).max(ISSUE_TAG_MAX_LENGTH);

/**
 * Tags of a filter, comma-joined in the query (`tags=panic,Backup`): trimmed,
 * blanks and duplicates dropped. An issue matches when it has every tag.
 */
export const ZIssueTagsFilter = z
  .string()
  .max(ISSUE_FILTER_MAX_TAGS * (ISSUE_TAG_MAX_LENGTH + 1))
  .transform((s) => [...new Set(s.split(',').map((t) => t.trim()).filter((t) => t.length > 0))])
  .pipe(z.array(ZTag).max(ISSUE_FILTER_MAX_TAGS))
  .describe('Comma-separated tags; an issue matches when it has every one');

/** An issue (spec 2 §3 Issue). `logCount`: logs kept (the newest `ISSUE_LOG_RETAINED`). Times ISO 8601 UTC. */
export const ZIssue = z.object({
  id: z.number().int(),
  machineId: z.number().int(),
  machineName: z.string(),
  source: ZIssueSource,
  description: z.string(),
  tags: z.array(z.string()),
  count: z.number().int(),
  firstOccurrenceTime: z.string(),
  lastOccurrenceTime: z.string(),
  isResolved: z.boolean(),
  logCount: z.number().int(),
});
export type TIssue = z.infer<typeof ZIssue>;

/**
 * How far past the requested page the issue lists count matching issues: a
 * list with more than `startIndex + limit + ISSUES_COUNT_AHEAD` issues answers
 * that many with `totalCapped` true ("at least"); paging on moves the cap on.
 * The spec's console fetched at most {@link ISSUES_FETCH_LIMIT} issues, so it
 * never knew a larger total; an exact count would check every issue's machine
 * and account on every page (15 ms at 5,000 issues for the operator).
 */
export const ISSUES_COUNT_AHEAD = 300;

/**
 * `GET /issues` and `GET /machines/{id}/issues`: newest last occurrence first
 * unless sorted otherwise ({@link ISSUE_SORTS}). `totalItems` is exact unless
 * `totalCapped` (see {@link ISSUES_COUNT_AHEAD}).
 */
export const ZIssuesPage = zPaged(ZIssue).extend({ totalCapped: z.boolean() });
export type TIssuesPage = z.infer<typeof ZIssuesPage>;

/**
 * Which issues a list shows by their Resolved flag, as Sentry's issue stream
 * does (`is:unresolved` unless asked): `unresolved` (the default: open issues
 * only), `resolved`, or `all`. A resolved issue that occurs again is open again
 * (a regression, DESIGN §14), so it comes back into the default list.
 */
export const ISSUE_STATUSES = ['unresolved', 'resolved', 'all'] as const;
export const ZIssueStatus = z.enum(ISSUE_STATUSES, { error: `Must be one of ${ISSUE_STATUSES.join(', ')}` });
export type TIssueStatus = z.infer<typeof ZIssueStatus>;
/** The list's default: open issues only. */
export const DEFAULT_ISSUE_STATUS: TIssueStatus = 'unresolved';

/**
 * The filter fields every issue list and the tag suggestions take: tags (every
 * one), status, `classId` (the machine's class) and `from`/`to` (the last
 * occurrence, inclusive, ISO 8601 with a zone; issue 24 point 7).
 */
const ISSUE_FILTER_FIELDS = {
  tags: ZIssueTagsFilter.optional(),
  status: ZIssueStatus.default(DEFAULT_ISSUE_STATUS).describe('unresolved (default), resolved or all'),
  classId: ZId.optional(),
  ...TIME_RANGE_FIELDS,
};

/**
 * The orders of the issue lists (`sort`, issue 24 point 7), each walked on an
 * index: `last` (the last occurrence, "last seen": the default), `first` (the
 * first occurrence, "first seen"), `count` (occurrences); then by id, in
 * `order` (default `desc`: newest or most first).
 */
export const ISSUE_SORTS = ['last', 'first', 'count'] as const;
export const ZIssueSort = z.enum(ISSUE_SORTS);
export type TIssueSort = z.infer<typeof ZIssueSort>;

/** The fields of the issue lists: paging, the filter and the order. */
const ISSUE_LIST_FIELDS = {
  ...PAGE_QUERY_FIELDS,
  ...ISSUE_FILTER_FIELDS,
  sort: ZIssueSort.default('last'),
  order: ZSortOrder.default('desc'),
};

/** `GET /machines/{id}/issues` (spec 2 §7 Machines): tags, status, classId, from, to, sort, order, startIndex, limit. */
export const ZMachineIssuesQuery = z.object(ISSUE_LIST_FIELDS).superRefine(refineTimeRange);
export type TMachineIssuesQuery = z.input<typeof ZMachineIssuesQuery>;

/** `GET /issues` (spec 2 §7 Issues): machineId, tags comma-joined, status, classId, from, to, sort, order, startIndex, limit. */
export const ZIssuesQuery = z.object({ ...ISSUE_LIST_FIELDS, machineId: ZId.optional() }).superRefine(refineTimeRange);
export type TIssuesQuery = z.input<typeof ZIssuesQuery>;

/** Most tag suggestions one call answers (`GET /issues/tags` `limit`). */
export const ISSUE_TAG_SUGGESTIONS_MAX = 100;
/** Default number of tag suggestions. */
export const ISSUE_TAG_SUGGESTIONS_DEFAULT = 50;
/** Tag suggestions count the tags of at most this many matching issues (the newest last occurrences). */
export const ISSUE_TAG_SUGGESTIONS_SCAN = 10_000;

/**
 * `GET /issues/tags`: the tags in use on the issues the viewer's filter
 * matches (machineId, tags, status, classId, from, to as `GET /issues` takes
 * them), to suggest in the tag filter. `search`: only tags containing it
 * (case-insensitive). `limit`: at most this many, 1..`ISSUE_TAG_SUGGESTIONS_MAX`.
 */
export const ZIssueTagsQuery = z
  .object({
    machineId: ZId.optional(),
    ...ISSUE_FILTER_FIELDS,
    search: z.string().trim().max(ISSUE_TAG_MAX_LENGTH).optional(),
    limit: z.coerce.number().int().min(1).max(ISSUE_TAG_SUGGESTIONS_MAX).default(ISSUE_TAG_SUGGESTIONS_DEFAULT),
  })
  .superRefine(refineTimeRange);
export type TIssueTagsQuery = z.input<typeof ZIssueTagsQuery>;

/** One suggested tag and how many matching issues carry it. */
export const ZIssueTagSuggestion = z.object({ tag: z.string(), issueCount: z.number().int() });
export type TIssueTagSuggestion = z.infer<typeof ZIssueTagSuggestion>;

/**
 * The answer of `GET /issues/tags`: the tags of the matching issues (the
 * newest `ISSUE_TAG_SUGGESTIONS_SCAN` of them) other than those already in the
 * filter, most used first (then by name), at most `limit`.
 */
export const ZIssueTagSuggestions = z.object({ items: z.array(ZIssueTagSuggestion).max(ISSUE_TAG_SUGGESTIONS_MAX) });
export type TIssueTagSuggestions = z.infer<typeof ZIssueTagSuggestions>;

/** One log of an issue (spec 2 §3 Issue log): `size` in characters of the whole content; `complete` false when the content was cut. */
export const ZIssueLog = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  size: z.number().int(),
  complete: z.boolean(),
});
export type TIssueLog = z.infer<typeof ZIssueLog>;

/** `GET /issues/{id}/logs`: newest first. */
export const ZIssueLogsQuery = z.object(PAGE_QUERY_FIELDS);
export type TIssueLogsQuery = z.input<typeof ZIssueLogsQuery>;
export const ZIssueLogsPage = zPaged(ZIssueLog);
export type TIssueLogsPage = z.infer<typeof ZIssueLogsPage>;

/** `PATCH /issues/{id}` (spec 2 §7, §4): resolve or reopen. */
export const ZUpdateIssueRequest = z.object({ isResolved: z.boolean() });
export type TUpdateIssueRequest = z.infer<typeof ZUpdateIssueRequest>;
