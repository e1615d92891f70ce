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
