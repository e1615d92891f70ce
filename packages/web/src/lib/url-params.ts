/** Helpers reading and writing list state in the URL query string (DESIGN §10 "URLs that keep filters"). */

/** A comma list parameter, keeping only values `accept` recognises. */
export function readList<T>(params: URLSearchParams, key: string, accept: (raw: string) => T | undefined): T[] {
  const raw = params.get(key);
  if (!raw) return [];
  return raw.split(',').flatMap((part) => {
    const value = accept(part.trim());
    return value === undefined ? [] : [value];
  });
}

/** Sets `key` to `value`, or removes it when `value` is undefined. */
export function writeParam(params: URLSearchParams, key: string, value: string | undefined): void {
  if (value === undefined) params.delete(key);
  else params.set(key, value);
}

/** A positive page number, 1 when absent or malformed. */
export function readPage(params: URLSearchParams, key = 'page'): number {
  const page = Number(params.get(key));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function oneOf<T extends string>(values: readonly T[]) {
  return (raw: string | null): T | undefined => (values as readonly string[]).includes(raw ?? '') ? (raw as T) : undefined;
}
