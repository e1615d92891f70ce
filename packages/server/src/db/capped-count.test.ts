/**
 * The capped totals of the long lists (db/capped-count.ts): where a count stops,
 * a short page's total without a count (the count is not run at all), and a
 * page's `limit` written into the statement only when it is a bounded integer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { countCap, pageLimit, pageTotal, reachedCap } from './capped-count.js';
import { queryPrepared } from './prepared.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The total `pageTotal` answers for a page of `rows` rows, with a count that fails when it runs (division by zero). */
async function total(rows: number, page: { startIndex: number; limit: number }): Promise<number> {
  const failingCount = sql`select 1 / (select count(*)::int - count(*)::int from mma_classes)`;
  const [row] = await queryPrepared<{ total: number }>(
    t.database.db,
    sql`with p as materialized (select g from generate_series(1, ${rows}::int) g)
      select ${pageTotal(sql`(select count(*)::int from p)`, page, failingCount)} as total`,
  );
  return row!.total;
}

describe('capped totals', () => {
  it('stops a count a block past the page, the same for every page of the block', () => {
    expect(countCap({ startIndex: 0, limit: 20 }, 300)).toBe(320);
    expect(countCap({ startIndex: 280, limit: 20 }, 300)).toBe(320);
    expect(countCap({ startIndex: 300, limit: 20 }, 300)).toBe(620);
    expect(reachedCap(320, 320)).toBe(true);
    expect(reachedCap(319, 320)).toBe(false);
  });

  it('answers a short page that is not empty without running the count', async () => {
    expect(await total(7, { startIndex: 0, limit: 20 })).toBe(7);
    expect(await total(3, { startIndex: 40, limit: 20 })).toBe(43);
    expect(await total(0, { startIndex: 0, limit: 20 })).toBe(0);
  });

  it('runs the count for a full page and for an empty page past the start', async () => {
    await expect(total(20, { startIndex: 0, limit: 20 })).rejects.toThrow(/division by zero/);
    await expect(total(0, { startIndex: 20, limit: 20 })).rejects.toThrow(/division by zero/);
  });

  it('writes a page limit into the statement only when it is an integer from 1 to 10,000', () => {
    expect(pageLimit(20)).toBeDefined();
    expect(pageLimit(10_000)).toBeDefined();
    for (const bad of [0, -1, 1.5, 10_001, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => pageLimit(bad)).toThrow(RangeError);
  });
});
