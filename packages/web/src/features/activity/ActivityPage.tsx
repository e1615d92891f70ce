/**
 * Activity Logs (spec 2 §2.11): filters (account, action, Newest/Oldest) kept in
 * the URL, a Refresh button ('Audit activities loaded', 2 s, after a successful
 * refresh), the infinite-scroll timeline and the detail panel of the chosen
 * activity (its id in the URL as `activityId`, so an operation can link to it).
 */
import { useCallback, useState } from 'react';
import { Card, Col, Row } from 'antd';
import { useToast } from '../../app/toast';
import { LOADED, useReloadUserActivities, useUserActivities } from './api/queries';
import { ActivityDetail } from './components/ActivityDetail';
import { ActivityFilters } from './components/ActivityFilters';
import { ActivityTimeline } from './components/ActivityTimeline';
import { useActivityParams } from './use-activity-params';

export default function ActivityPage() {
  const { filter, setFilter, activityId: selectedId, setActivityId: setSelectedId } = useActivityParams();
  const activities = useUserActivities(filter);
  const reload = useReloadUserActivities();
  const toast = useToast();
  const [refreshing, setRefreshing] = useState(false);

  const all = activities.data?.pages.flat() ?? [];
  const selected = all.find((a) => a.id === selectedId);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = activities;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onRefresh = async () => {
    setRefreshing(true);
    try {
      if (await reload(filter)) toast.success(LOADED);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Card title="Activity Logs">
      <ActivityFilters filter={filter} refreshing={refreshing} onChange={setFilter} onRefresh={() => void onRefresh()} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <ActivityTimeline
            activities={all}
            loading={activities.isLoading || refreshing}
            loadingMore={isFetchingNextPage}
            hasMore={hasNextPage && !activities.isError}
            selectedId={selectedId}
            onSelect={(a) => setSelectedId(a.id)}
            onLoadMore={loadMore}
          />
        </Col>
        <Col xs={24} lg={14}>
          <ActivityDetail activity={selected} activityId={selectedId} />
        </Col>
      </Row>
    </Card>
  );
}
