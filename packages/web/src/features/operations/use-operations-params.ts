/**
 * The Operations viewer's state kept in the URL query string (spec 2 §2.1,
 * §2.6; DESIGN §10): `machine` (the selected machine id; a new tab opened from
 * a machine carries it) and `page` (1-based). Choosing another machine goes
 * back to page 1 and clears the viewers' cached lists. The viewers' shared
 * parameters (`features/viewer/use-viewer-params.ts`).
 */
import { useViewerParams } from '../viewer/use-viewer-params';

export { readMachineParam } from '../viewer/use-viewer-params';

export interface OperationsViewerParams {
  machineId: number | undefined;
  page: number;
}

export function useOperationsParams() {
  const { machineId, page, setMachine, setPage } = useViewerParams();
  return { machineId, page, setMachine, setPage };
}
