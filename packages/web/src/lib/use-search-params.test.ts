/**
 * Query-string updates made before a render, or through an older setter, keep
 * each other (issue 24 point 7: a viewer sorted right after a filter lost the
 * filter).
 */
import { describe, expect, it } from 'vitest';
import { MAX_WRITES, nextSearch, renderedSearch, type TSearchState } from './use-search-params';

const set = (key: string, value: string) => (prev: URLSearchParams) => (prev.set(key, value), prev);
const start: TSearchState = renderedSearch({ path: '', rendered: '', writes: [] }, '/viewer/issues', 'status=all');

describe('nextSearch', () => {
  it('starts each update from the one written before it while no render caught up', () => {
    const first = nextSearch(start, set('class', '4'));
    expect(first.params.toString()).toBe('status=all&class=4');
    const second = nextSearch(first.state, set('sort', 'count'));
    expect(second.params.toString()).toBe('status=all&class=4&sort=count');
    expect(second.state.writes).toEqual(['status=all&class=4', 'status=all&class=4&sort=count']);
  });

  it('keeps the later writes when a render shows an earlier one', () => {
    const first = nextSearch(start, set('class', '4'));
    const second = nextSearch(first.state, set('from', '2026-11-02T11:41:00.000Z'));
    // The render of the first write arrives; the sort is clicked on it.
    const shown = renderedSearch(second.state, '/viewer/issues', first.params.toString());
    expect(shown.writes).toEqual([second.params.toString()]);
    expect(nextSearch(shown, set('sort', 'count')).params.toString()).toBe('status=all&class=4&from=2026-11-02T11%3A41%3A00.000Z&sort=count');
  });

  it('starts from the rendered query string once a render caught up, or another navigation happened', () => {
    const first = nextSearch(start, set('class', '4'));
    const caughtUp = renderedSearch(first.state, '/viewer/issues', first.params.toString());
    expect(caughtUp.writes).toEqual([]);
    expect(nextSearch(caughtUp, set('page', '2')).params.toString()).toBe('status=all&class=4&page=2');
    const back = renderedSearch(first.state, '/viewer/issues', 'machine=7');
    expect(nextSearch(back, set('page', '2')).params.toString()).toBe('machine=7&page=2');
  });

  it('drops the writes of another page, even one of the same query string', () => {
    const first = nextSearch(renderedSearch(start, '/viewer/tasks', ''), set('class', '4'));
    const elsewhere = renderedSearch(first.state, '/viewer/issues', '');
    expect(nextSearch(elsewhere, set('page', '2')).params.toString()).toBe('page=2');
  });

  it('takes a plain value as the whole query string', () => {
    const first = nextSearch(start, set('b', '2'));
    expect(nextSearch(first.state, { c: '3' }).params.toString()).toBe('c=3');
  });

  it('keeps at most MAX_WRITES writes', () => {
    let state = start;
    for (let i = 0; i < MAX_WRITES + 5; i++) state = nextSearch(state, set('page', String(i))).state;
    expect(state.writes).toHaveLength(MAX_WRITES);
    expect(new URLSearchParams(state.writes.at(-1)).get('page')).toBe(String(MAX_WRITES + 4));
  });
});
