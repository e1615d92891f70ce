/**
 * Two query-string updates before a render keep both (issue 24 point 7: a
 * viewer sorted right after a filter lost the filter).
 */
import { describe, expect, it } from 'vitest';
import { nextSearch } from './use-search-params';

const set = (key: string, value: string) => (prev: URLSearchParams) => (prev.set(key, value), prev);

describe('nextSearch', () => {
  it('starts the second update of one render from the first one', () => {
    const rendered = new URLSearchParams('class=2');
    const first = nextSearch(undefined, rendered, set('status', 'running'));
    expect(first.params.toString()).toBe('class=2&status=running');
    const second = nextSearch(first.pending, rendered, set('sort', 'timestamp'));
    expect(second.params.toString()).toBe('class=2&status=running&sort=timestamp');
  });

  it('starts from the rendered query string once a render caught up or another navigation happened', () => {
    const first = nextSearch(undefined, new URLSearchParams('class=2'), set('status', 'running'));
    const elsewhere = new URLSearchParams('machine=7');
    expect(nextSearch(first.pending, elsewhere, set('page', '2')).params.toString()).toBe('machine=7&page=2');
  });

  it('takes a plain value as the whole query string', () => {
    const first = nextSearch(undefined, new URLSearchParams('a=1'), set('b', '2'));
    expect(nextSearch(first.pending, new URLSearchParams('a=1'), { c: '3' }).params.toString()).toBe('c=3');
  });
});
