/**
 * Shared reads for callers that ask the same question at once (issue 23
 * point 5: the lists polled by many consoles), without ever answering a caller
 * with a read older than its question.
 *
 * `coalesce(load, keyOf)` answers a function of `load`'s argument: a call joins
 * the run of `load` for the same key (`keyOf(argument)`) that has *not begun yet* (queued behind the one in flight), or
 * begins one when none is in flight. It never joins a run already under way:
 * that run may have read the database before the caller's own write committed
 * (a click on Start, then the list), so every caller is answered by a read
 * that began after it asked. At most one run per key is in flight and at most
 * one waits; under load, one read serves every caller that arrived while the
 * previous one ran, instead of one read each.
 *
 * The key must name everything the answer depends on (the statement, its
 * parameters, the caller's visibility). A run that fails fails every caller
 * that joined it; the next call begins a new run. Nothing is kept once a key's
 * runs are over: this is not a cache.
 */
export function coalesce<A, T>(load: (argument: A) => Promise<T>, keyOf: (argument: A) => string): (argument: A) => Promise<T> {
  /** Per key: the run in flight, and the run queued behind it (joined by the callers that came since). */
  const runs = new Map<string, { current: Promise<T>; next?: Promise<T> }>();

  const begin = (key: string, argument: A): Promise<T> => {
    const current = load(argument);
    const settled = () => {
      const entry = runs.get(key);
      if (entry?.current === current && !entry.next) runs.delete(key);
    };
    current.then(settled, settled);
    return current;
  };

  return (argument) => {
    const key = keyOf(argument);
    const entry = runs.get(key);
    if (!entry) {
      const current = begin(key, argument);
      runs.set(key, { current });
      return current;
    }
    if (entry.next) return entry.next;
    const next = entry.current.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      // From here on a new caller queues behind this run: it begins now, after everyone who joined it asked.
      const current = begin(key, argument);
      runs.set(key, { current });
      return current;
    });
    entry.next = next;
    return next;
  };
}

/**
 * `read(db, query)` shared as {@link coalesce} shares it, keyed by the query as
 * JSON: the query must hold everything the answer depends on (its filters,
 * page and the caller's visibility). The list pages polled by many consoles
 * (machines, issues, operations, states, cloud instances) read through it.
 */
export function sharedRead<D, Q, T>(read: (db: D, query: Q) => Promise<T>, db: D): (query: Q) => Promise<T> {
  return coalesce((query: Q) => read(db, query), (query) => JSON.stringify(query));
}
