/**
 * Debounce of the search boxes (spec 1 §9, spec 3 §9): the accounts list's
 * filter and the version and library file dialogs' searches.
 */
import { useEffect, useState } from 'react';

/** Debounce of a search box, milliseconds (spec 1 §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/** `value` once it has not changed for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
