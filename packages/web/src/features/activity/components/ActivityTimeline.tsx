/**
 * Timeline of audit activities with infinite scroll (spec 2 §2.11, §9): the
 * list scrolls inside its own box; each time the user scrolls to its bottom the
 * next 10 activities are fetched, until a page comes back empty. A "Load more"
 * button does the same for keyboard users and when the entries do not fill the
 * box. Each entry is a button showing action, user, time and account names
 * (the first 3, then how many more);
 * choosing it selects the activity for the detail panel.
 *
 * Opened at one activity (a link to `/activity?activityId=N`, issue 24 point 6)
 * the timeline starts at it, selected; "Show newer activities" ("Show older
 * activities" when sorted Oldest first) at the top loads the 10 before it, and
 * again, until there are no more.
 */
import type { UIEvent } from 'react';
import { Button, Empty, Spin, Timeline, Typography, theme } from 'antd';
import type { TUserActivity } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';

/** Distance from the bottom of the box at which the next page loads, pixels. */
const SCROLL_END_PX = 24;

interface Props {
  activities: TUserActivity[];
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  /** Opened at an activity: the ones before it in the list can be loaded above. */
  hasNewer: boolean;
  /** Newest first: they are newer; else older. */
  descending: boolean;
  loadingNewer: boolean;
  selectedId: number | undefined;
  onSelect(activity: TUserActivity): void;
  onLoadMore(): void;
  onLoadNewer(): void;
}

/** How many account names an entry shows before 'and N more'. */
const SHOWN_ACCOUNTS = 3;

function accountsText(activity: TUserActivity): string {
  const names = activity.accounts.slice(0, SHOWN_ACCOUNTS).map((a) => a.name).join(', ');
  const more = activity.accounts.length - SHOWN_ACCOUNTS;
  return more > 0 ? `${names} and ${more} more` : names;
}

function dotColor(action: string, selected: boolean): string {
  if (selected) return 'blue';
  if (action === 'DeleteAccount' || action === 'LoginFailed') return 'red';
  if (action.startsWith('Push') || action === 'CreateAccount') return 'green';
  return 'gray';
}

export function ActivityTimeline(props: Props) {
  const { activities, loading, loadingMore, hasMore, hasNewer, descending, loadingNewer, selectedId, onSelect, onLoadMore, onLoadNewer } = props;
  const { token } = theme.useToken();
  const count = activities.length;

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    if (hasMore && box.scrollTop + box.clientHeight >= box.scrollHeight - SCROLL_END_PX) onLoadMore();
  };

  const items = activities.map((activity) => {
    const selected = activity.id === selectedId;
    return {
      key: activity.id,
      color: dotColor(activity.action, selected),
      content: (
        <button
          type="button"
          aria-pressed={selected}
          onClick={() => onSelect(activity)}
          style={{
            // A plain-looking button that keeps the browser's focus ring.
            font: 'inherit',
            color: 'inherit',
            textAlign: 'left',
            border: 0,
            cursor: 'pointer',
            display: 'block',
            width: '100%',
            padding: '2px 8px',
            borderRadius: token.borderRadius,
            background: selected ? token.controlItemBgActive : 'transparent',
          }}
        >
          <Typography.Text strong>{activity.action}</Typography.Text>
          <Typography.Text type="secondary"> by {activity.user}</Typography.Text>
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDateTime(activity.time, DATE_TIME_SECONDS_FORMAT)}
          </Typography.Text>
          {activity.accounts.length > 0 && (
            <>
              <br />
              <Typography.Text style={{ fontSize: 12 }}>{accountsText(activity)}</Typography.Text>
            </>
          )}
        </button>
      ),
    };
  });

  return (
    <div
      onScroll={onScroll}
      role="region"
      aria-label="Activities"
      aria-busy={loading || loadingMore || loadingNewer}
      style={{ height: 'calc(100vh - 300px)', minHeight: 320, overflowY: 'auto', padding: '8px 8px 0 12px' }}
    >
      {!loading && hasNewer && (
        <Button type="link" block loading={loadingNewer} onClick={onLoadNewer} style={{ marginBottom: 8 }}>
          {descending ? 'Show newer activities' : 'Show older activities'}
        </Button>
      )}
      {loading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : count === 0 ? (
        <Empty description="No activities" />
      ) : (
        <Timeline items={items} />
      )}
      {loadingMore && <Spin size="small" style={{ display: 'block', margin: '8px auto' }} />}
      {!loading && !loadingMore && hasMore && count > 0 && (
        <Button type="link" block onClick={onLoadMore}>
          Load more
        </Button>
      )}
      {!loading && !hasMore && count > 0 && (
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          No more activities
        </Typography.Paragraph>
      )}
    </div>
  );
}
