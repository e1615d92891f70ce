/**
 * Activity Logs (spec 2 §2.11; issue 24 point 6): filters (account, action,
 * user, time range, sign-ins shown or not, Newest/Oldest) kept in the URL, a
 * Refresh button ('Audit activities loaded', 2 s, after a successful refresh),
 * the infinite-scroll timeline and the detail panel of the chosen activity (its
 * id in the URL as `activityId`, so an operation or a rollout can link to it).
 *
 * Opened with an `activityId` (a link, or a reload), the timeline starts at that
 * activity and the panel shows it at once; so does a link followed while the
 * page is open, to an activity the timeline has not loaded. Changing a filter
 * starts the timeline from the top again; choosing an activity in the timeline
 * keeps it as it is.
 */
import { useCallback, useState } from 'react';
import { Card, Col, Row } from 'antd';
import { useToast } from '../../app/toast';
import { LOADED, useReloadUserActivities, useUserActivities, type ActivityFilter } from './api/queries';
import { ActivityDetail } from './components/ActivityDetail';
import { ActivityFilters } from './components/ActivityFilters';
import { ActivityTimeline } from './components/ActivityTimeline';
import { useActivityParams } from './use-activity-params';

export default function ActivityPage() {
  const { filter, setFilter, activityId: selectedId, setActivityId: setSelectedId } = useActivityParams();
  // The activity the page was opened at: the timeline starts there until a filter changes.
  const [anchorId, setAnchorId] = useState(selectedId);
  const activities = useUserActivities(filter, anchorId);
  const reload = useReloadUserActivities();
  const toast = useToast();
  const [refreshing, setRefreshing] = useState(false);

  const all = activities.data?.pages.flat() ?? [];
  const fromList = all.find((a) => a.id === selectedId);
  // A link followed while the page is open (the URL's activityId changed, not by a choice in the timeline).
  const [shownId, setShownId] = useState(selectedId);
  if (selectedId !== shownId) {
    setShownId(selectedId);
    if (!fromList) setAnchorId(selectedId);
  }
  const { hasNextPage, isFetchingNextPage, fetchNextPage, hasPreviousPage, isFetchingPreviousPage, fetchPreviousPage } = activities;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const loadNewer = () => {
    if (hasPreviousPage && !isFetchingPreviousPage) void fetchPreviousPage();
  };

  const onFilter = (patch: Partial<ActivityFilter>) => {
    setAnchorId(undefined);
    setFilter(patch);
  };

  const onRefresh = async () => {
    setRefreshing(true);
    try {
      if (await reload(filter, anchorId)) toast.success(LOADED);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Card title="Activity Logs">
      <ActivityFilters filter={filter} refreshing={refreshing} onChange={onFilter} onRefresh={() => void onRefresh()} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <ActivityTimeline
            activities={all}
            loading={activities.isLoading || refreshing}
            loadingMore={isFetchingNextPage}
            hasMore={hasNextPage && !activities.isError}
            hasNewer={hasPreviousPage && !activities.isError}
            descending={filter.sortDirection === 'Descending'}
            loadingNewer={isFetchingPreviousPage}
            selectedId={selectedId}
            onSelect={(a) => setSelectedId(a.id)}
            onLoadMore={loadMore}
            onLoadNewer={loadNewer}
          />
        </Col>
        <Col xs={24} lg={14}>
          <ActivityDetail activityId={selectedId} fromList={fromList} />
        </Col>
      </Row>
    </Card>
  );
}
