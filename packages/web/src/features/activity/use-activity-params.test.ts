/**
 * The activity log's URL filters (issue 24 point 6): what `readActivityFilter`
 * keeps of a query string (malformed values left out rather than sent for a
 * 400).
 */
import { describe, expect, it } from 'vitest';
import { readActivityFilter } from './use-activity-params';

const read = (query: string) => readActivityFilter(new URLSearchParams(query));

describe('readActivityFilter', () => {
  it('reads every filter of the URL', () => {
    expect(read('accountId=4&action=Login&user=tbecker&from=2026-01-01T00:00:00.000Z&to=2026-01-02T10:00:00%2B01:00&signIns=true&sortDirection=Ascending')).toEqual({
      accountId: 4,
      action: 'Login',
      user: 'tbecker',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T10:00:00+01:00',
      signIns: true,
      sortDirection: 'Ascending',
    });
  });

  it('defaults to all activities but sign-ins, newest first', () => {
    expect(read('')).toEqual({ accountId: undefined, action: undefined, user: undefined, from: undefined, to: undefined, signIns: false, sortDirection: 'Descending' });
  });

  it('leaves out malformed values', () => {
    const filter = read(`accountId=-1&action=DropDatabase&user=${'u'.repeat(101)}&from=yesterday&to=2026-01-02&signIns=yes&sortDirection=Newest`);
    expect(filter).toEqual({ accountId: undefined, action: undefined, user: undefined, from: undefined, to: undefined, signIns: false, sortDirection: 'Descending' });
    expect(read('user=%20%20').user).toBeUndefined();
  });

  it('drops a range whose end is before its start', () => {
    expect(read('from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z')).toMatchObject({ from: undefined, to: undefined });
  });
});
