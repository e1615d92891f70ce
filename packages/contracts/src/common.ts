/**
 * Shared API conventions (DESIGN §5): paging, sorting, problem details, ids.
 */
import { z } from 'zod';

/** Largest page a list call answers (DESIGN §5). */
export const MAX_PAGE_LIMIT = 1000;
/** Default page size of lists (spec 1 §9). */
export const DEFAULT_PAGE_SIZE = 20;
/** Longest free-text search accepted by list calls. */
export const MAX_SEARCH_LENGTH = 200;

export const ZSortDirection = z.enum(['Ascending', 'Descending']);
export type TSortDirection = z.infer<typeof ZSortDirection>;

/** The viewers' page size (issue 24 point 7: one for every viewer) and the sizes their size changer offers. */
export const VIEWER_PAGE_SIZE = 20;
export const VIEWER_PAGE_SIZES = [20, 50, 100] as const;

/** A viewer list's sort order (`order=asc|desc`, issue 24 point 7). */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export const ZSortOrder = z.enum(SORT_ORDERS, { error: 'Must be asc or desc' });
export type TSortOrder = z.infer<typeof ZSortOrder>;

/** A time in a query string: ISO 8601 with a zone (`2026-11-28T09:00:00Z`), at most 40 characters; `field` names it in the error. */
export const zQueryTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date and time with a time zone, e.g. 2026-11-28T09:00:00Z` })
    .max(40, `${field} must be an ISO 8601 date and time with a time zone`);

/** A list's time range in a query string (`from`, `to`: inclusive, either open); check it with {@link refineTimeRange}. */
export const TIME_RANGE_FIELDS = {
  from: zQueryTime('From').optional(),
  to: zQueryTime('To').optional(),
};

/** The check of a query's {@link TIME_RANGE_FIELDS} (a `superRefine`): `to` not before `from`, else an error on `to`. */
export function refineTimeRange(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (q.from && q.to && Date.parse(q.to) < Date.parse(q.from)) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must not be before From', input: q.to });
  }
}

/** A `true`/`false` query flag (a plain coerce would read 'false' as true). */
export const ZQueryFlag = z
  .enum(['true', 'false'], { error: 'Must be true or false' })
  .transform((v) => v === 'true');

/**
 * Largest value of a PostgreSQL `integer` (2^31 - 1): the bound of every id and
 * every whole number that reaches the database, so that no input can make
 * PostgreSQL answer "integer out of range".
 */
export const INT4_MAX = 2_147_483_647;

/** A positive integer id in a path or query, e.g. `/accounts/{id}` (1 to 2^31 - 1). Malformed ids are 400. */
export const ZId = z.coerce.number().int().min(1).max(INT4_MAX);
/** A positive integer id in a JSON body (1 to 2^31 - 1; no coercion: `"5"` is a wrong type). */
export const ZRefId = z.number().int().min(1).max(INT4_MAX);

export const ZIdParams = z.object({ id: ZId });
export type TIdParams = z.infer<typeof ZIdParams>;

/**
 * `startIndex` (default 0) and `limit` (default 20, 1..1000) of every paged list.
 * The paging fields, as a plain object so that other queries extend with them
 * (`.extend(PAGE_QUERY_FIELDS)`) without reading `ZPageQuery.shape` at module
 * level, which would keep zod in the console's first chunk.
 */
export const PAGE_QUERY_FIELDS = {
  startIndex: z.coerce.number().int().min(0).max(INT4_MAX).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_SIZE),
};
export const ZPageQuery = z.object(PAGE_QUERY_FIELDS);

/**
 * A JSON object used as a map (`{"key": value}`), at most `max` entries; the
 * bound is stated in the OpenAPI document as `maxProperties`.
 */
export const zBoundedMap = <K extends z.ZodType<string, string>, V extends z.ZodTypeAny>(key: K, value: V, max: number) =>
  z
    .record(key, value)
    .refine((map) => Object.keys(map).length <= max, `At most ${max} entries`)
    .meta({ maxProperties: max });

/** `{items, totalItems}` answer of a paged list. */
export const zPaged = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ items: z.array(item), totalItems: z.number().int() });

/**
 * A comma list in a query string (`classIds=1,2,3`) parsed into an array; empty
 * entries are dropped, each entry is validated by `item`.
 */
export const zCommaList = <T extends z.ZodTypeAny>(item: T) =>
  z
    .string()
    .max(2000)
    .transform((s) => s.split(',').map((v) => v.trim()).filter((v) => v.length > 0))
    .pipe(z.array(item) as unknown as z.ZodType<z.output<T>[], string[]>)
    .describe('Comma-separated list');

/** One field error of a 400 answer. */
export const ZFieldError = z.object({
  propertyName: z.string(),
  errorMessage: z.string(),
  attemptedValue: z.unknown().optional(),
});
export type TFieldError = z.infer<typeof ZFieldError>;

/** RFC 9457 problem details, the body of every error answer. */
export const ZProblemDetails = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  errors: z.array(ZFieldError).optional(),
});
export type TProblemDetails = z.infer<typeof ZProblemDetails>;

export const ZOk = z.object({ ok: z.literal(true) });
