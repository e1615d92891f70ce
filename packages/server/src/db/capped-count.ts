/**
 * The capped totals of the long lists (the viewers of spec 2 §2.2–§2.7, the
 * Machines page; issue 9 "The slow paths"). Counting every match of a filter on
 * a 100,000-machine fleet cost more than the page itself, and the console
 * shows only the pages near the one it is on. So the rows matching a page's
 * filter are counted in the page's own order, and the count stops `ahead` rows
 * past the page: a page deep in the list costs no more than its neighbours.
 * The answer then carries `totalCapped` (true when the count reached its cap:
 * `totalItems` is a lower bound, and the console says "at least").
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';

/**
 * Where the count of a page stops: at the end of the block of `ahead` rows the
 * page starts in, plus a page (`(floor(startIndex / ahead) + 1) * ahead + limit`),
 * so always past the page's last row. The cap is the same for every page of a
 * block, so a capped total ("at least N") does not change while paging through
 * the first `ahead` rows (issue 24 point 7: it used to grow a page at a time);
 * it moves on by `ahead` once the pages pass it.
 */
export function countCap(page: { startIndex: number; limit: number }, ahead: number): number {
  return (Math.floor(page.startIndex / ahead) + 1) * ahead + page.limit;
}

/** Whether a total counted up to `cap` reached it: then it is a lower bound (`totalCapped`, "at least"). */
export function reachedCap(total: number, cap: number): boolean {
  return total >= cap;
}

/**
 * `select count(*)::int from (<rows> limit <cap>) x`: the count of `rows` (a
 * select, ordered as the page is so that the planner walks the page's index),
 * at most `cap` (a number, or a placeholder of a compiled statement).
 */
export function cappedCount(rows: SQL, cap: number | Placeholder): SQL {
  return sql`select count(*)::int from (${rows} limit ${cap}::int) x`;
}

/**
 * The `json_build_object` fields of a page's totals: `'totalItems', <total>,
 * 'totalCapped', <total> >= <cap>`.
 */
export function cappedTotalFields(total: SQL, cap: number): SQL {
  return sql`'totalItems', ${total}, 'totalCapped', ${total} >= ${cap}::int`;
}

/**
 * The total of a page whose rows are counted by `pageRows` (an SQL int, the
 * rows the page found): a short page that is not empty ends the list, so its
 * total is `startIndex` plus its rows and `count` (a capped count,
 * {@link cappedCount}) is not run; a full page, or an empty one past the
 * start, runs `count`. PostgreSQL runs an uncorrelated scalar subquery only
 * when an expression reaches it, so a filter that matches a few rows is walked
 * once, not twice (the States viewer's empty first page of a class and a
 * component: 23 → 12 ms on the scale fleet).
 */
export function pageTotal(pageRows: SQL, page: { startIndex: number; limit: number }, count: SQL): SQL {
  return sql`case when ${pageRows} = ${page.limit}::int or (${pageRows} = 0 and ${page.startIndex}::int > 0)
    then (${count}) else ${page.startIndex}::int + ${pageRows} end`;
}

/**
 * A page's `limit` written into the statement's text, not a parameter: a
 * generic plan takes a parameter `limit` for a tenth of the rows, and for a
 * filter it expects a few thousand rows of (a class of a twentieth of the
 * fleet) it then sorted every match rather than walk the page's index to the
 * page (44 → 4 ms on the scale fleet). Each page size is its own prepared
 * statement (the console asks for three). Throws unless `limit` is an integer
 * from 1 to 10,000 (the contracts bound it to 1,000).
 */
export function pageLimit(limit: number): SQL {
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new RangeError(`page limit ${limit} is not an integer from 1 to 10,000`);
  return sql.raw(String(limit));
}

/**
 * The two CTEs of a viewer page (`with ${pageCtes(...)} select …`): `p`, the
 * page's ids (`ids`, a select of one `id` column in page order) with their
 * position `n`, and `t`, its total `n` ({@link pageTotal} with `count`), both
 * materialised so that each runs once.
 */
export function pageCtes(ids: SQL, page: { startIndex: number; limit: number }, count: SQL): SQL {
  return sql`p as materialized (select i.id, row_number() over () as n from (${ids} offset ${page.startIndex}::int limit ${pageLimit(page.limit)}) i),
      t as materialized (select ${pageTotal(sql`(select count(*)::int from p)`, page, count)} as n)`;
}
