/**
 * The Updater's target selection (spec 3 §2.8; issue 13): ids kept across pages
 * and filter changes until cleared, the rows seen (name, class) so dialogs can
 * name them, and 'select all that match' (at most 10,000 ids; `capped` when the
 * filter matches more). A mode change clears it (machine and account ids differ).
 */
import { useCallback, useState } from 'react';
import { MAX_UPDATE_TARGETS } from '@fleet/contracts';

/** What the Updater keeps of a target row it showed: its name and class (an account, a TUpdaterAccount; a machine, a TMachine of the machines panel). */
export interface SeenTarget {
  id: number;
  name: string;
  classId: number;
}

export interface TargetSelection {
  ids: number[];
  /** The rows seen in the table or panel, by id (a selection from 'select all' may hold ids never shown). */
  seen: ReadonlyMap<number, SeenTarget>;
  /** Set by 'select all': the number of matches when it exceeds {@link MAX_UPDATE_TARGETS}. */
  cappedFrom: number | null;
  set(ids: number[], cappedFrom?: number | null): void;
  remember(rows: readonly SeenTarget[]): void;
  clear(): void;
}

export function useTargetSelection(): TargetSelection {
  const [ids, setIds] = useState<number[]>([]);
  const [cappedFrom, setCappedFrom] = useState<number | null>(null);
  const [seen, setSeen] = useState<ReadonlyMap<number, SeenTarget>>(() => new Map());

  const set = useCallback((next: number[], capped: number | null = null) => {
    setIds(next.slice(0, MAX_UPDATE_TARGETS));
    setCappedFrom(capped);
  }, []);
  const remember = useCallback((rows: readonly SeenTarget[]) => {
    setSeen((prev) => {
      const same = (row: SeenTarget) => prev.get(row.id)?.name === row.name && prev.get(row.id)?.classId === row.classId;
      // A page reloaded (a task event, a poll) with the same names and classes changes nothing.
      if (rows.every(same)) return prev;
      const next = new Map(prev);
      for (const { id, name, classId } of rows) next.set(id, { id, name, classId });
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    setIds([]);
    setCappedFrom(null);
  }, []);

  return { ids, seen, cappedFrom, set, remember, clear };
}
