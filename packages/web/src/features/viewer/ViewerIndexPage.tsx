/**
 * `/viewer` (spec 2 §2.1): loads the machine lookup first, then redirects to
 * `/viewer/issues`, keeping the `machine` query parameter (the selected
 * machine, as a number). What it loads is what the selector shows first: the
 * selected machine's entry, or the first page of machines without a selection
 * (never the whole fleet). A failed lookup does not hold the redirect back: the
 * selector shows the id as `Machine {id}`.
 */
import { Navigate, useLocation } from 'react-router';
import { Flex, Spin } from 'antd';
import { useMachineEntry, useMachineSearch } from './api/queries';
import { readMachineParam, viewerSearch } from './use-viewer-params';

export default function ViewerIndexPage() {
  const { search } = useLocation();
  const machineId = readMachineParam(new URLSearchParams(search));
  const firstPage = useMachineSearch('');
  const entry = useMachineEntry(machineId);
  if (machineId === undefined ? firstPage.isPending : entry.isPending) {
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin aria-label="Loading machines" />
      </Flex>
    );
  }
  return <Navigate to={`/viewer/issues${viewerSearch(search)}`} replace />;
}
