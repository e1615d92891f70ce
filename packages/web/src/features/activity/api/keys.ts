/** Query keys of the activity log (spec 2 §2.11; issue 24 point 6). */
import type { ActivityFilter } from './queries';

export const activityKeys = {
  all: ['user-activities'] as const,
  /** The timeline of `filter`, opened at activity `anchorId` (none: at the top). */
  list: (filter: ActivityFilter, anchorId: number | undefined) => [...activityKeys.all, 'list', filter, anchorId ?? null] as const,
  detail: (id: number) => [...activityKeys.all, 'detail', id] as const,
  users: () => [...activityKeys.all, 'users'] as const,
};
