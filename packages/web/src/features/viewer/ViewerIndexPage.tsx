/**
 * `/viewer` (spec 2 §2.1): loads the machine lookup first, then redirects to
 * `/viewer/issues`, keeping the `machine` query parameter (the selected
 * machine, as a number). A failed lookup does not hold the redirect back: the
 * selector shows the id as `Machine {id}`.
 */
import { Navigate, useLocation } from 'react-router';
import { Flex, Spin } from 'antd';
import { useMachineLookup } from './api/queries';
import { viewerSearch } from './use-viewer-params';

export default function ViewerIndexPage() {
  const lookup = useMachineLookup();
  const { search } = useLocation();
  if (lookup.isPending) {
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin aria-label="Loading machines" />
      </Flex>
    );
  }
  return <Navigate to={`/viewer/issues${viewerSearch(search)}`} replace />;
}
