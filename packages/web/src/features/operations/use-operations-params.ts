/**
 * The Operations viewer's state kept in the URL query string (spec 2 §2.1,
 * §2.6; DESIGN §10): `machine` (the selected machine id; a new tab opened from
 * a machine carries it) and `page` (1-based). Choosing another machine goes
 * back to page 1.
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { readPage, writeParam } from '../../lib/url-params';

export interface OperationsViewerParams {
  machineId: number | undefined;
  page: number;
}

/** The `machine` parameter as a machine id: a positive integer, else none. */
export function readMachineParam(params: URLSearchParams): number | undefined {
  const raw = params.get('machine');
  if (raw === null || raw.trim() === '') return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function useOperationsParams() {
  const [params, setParams] = useSearchParams();
  const state = useMemo<OperationsViewerParams>(() => ({ machineId: readMachineParam(params), page: readPage(params) }), [params]);

  const setMachine = (machineId: number | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'machine', machineId?.toString());
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const setPage = (page: number) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      writeParam(next, 'page', page > 1 ? String(page) : undefined);
      return next;
    });

  return { ...state, setMachine, setPage };
}
