/** Query keys of the activity log (spec 2 §2.11). */
import type { ActivityFilter } from './queries';

export const activityKeys = {
  all: ['user-activities'] as const,
  list: (filter: ActivityFilter) => [...activityKeys.all, filter] as const,
};
