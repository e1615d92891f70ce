/**
 * The Updater's target selection (spec 3 §2.8; issue 13): ids kept across pages
 * and filter changes until cleared, the rows seen (name, class) so dialogs can
 * name them, and 'select all that match' (at most 10,000 ids; `capped` when the
 * filter matches more). A mode change clears it (machine and account ids differ).
 */
import { useCallback, useState } from 'react';
import { MAX_UPDATE_TARGETS } from '@fleet/contracts';
import type { UpdaterTarget } from './api/queries';

export interface TargetSelection {
  ids: number[];
  /** The rows seen in the table, by id (a selection from 'select all' may hold ids never shown). */
  seen: ReadonlyMap<number, UpdaterTarget>;
  /** Set by 'select all': the number of matches when it exceeds {@link MAX_UPDATE_TARGETS}. */
  cappedFrom: number | null;
  set(ids: number[], cappedFrom?: number | null): void;
  remember(rows: readonly UpdaterTarget[]): void;
  clear(): void;
}

export function useTargetSelection(): TargetSelection {
  const [ids, setIds] = useState<number[]>([]);
  const [cappedFrom, setCappedFrom] = useState<number | null>(null);
  const [seen, setSeen] = useState<ReadonlyMap<number, UpdaterTarget>>(() => new Map());

  const set = useCallback((next: number[], capped: number | null = null) => {
    setIds(next.slice(0, MAX_UPDATE_TARGETS));
    setCappedFrom(capped);
  }, []);
  const remember = useCallback((rows: readonly UpdaterTarget[]) => {
    setSeen((prev) => {
      if (rows.every((row) => prev.get(row.id) === row)) return prev;
      const next = new Map(prev);
      for (const row of rows) next.set(row.id, row);
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    setIds([]);
    setCappedFrom(null);
  }, []);

  return { ids, seen, cappedFrom, set, remember, clear };
}
