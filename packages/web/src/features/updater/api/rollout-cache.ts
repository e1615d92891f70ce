/**
 * RolloutProgress events of the push channel (`/taskHub`, DESIGN §15) straight
 * into the query cache: the cached rollout takes the event's status, current
 * wave and counts at once; its waves (whose counts the event does not carry),
 * its target pages and the list pages are then re-read.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { TRollout, TRolloutProgressEvent } from '@fleet/contracts';
import { rolloutKeys } from './keys';

/** Applies one RolloutProgress event; answers whether the rollout was cached. */
export function applyRolloutProgress(queryClient: QueryClient, event: TRolloutProgressEvent): boolean {
  const key = rolloutKeys.detail(event.rolloutId);
  const cached = queryClient.getQueryData<TRollout>(key);
  void queryClient.invalidateQueries({ queryKey: rolloutKeys.targets(event.rolloutId) });
  void queryClient.invalidateQueries({ queryKey: rolloutKeys.lists() });
  if (!cached) return false;
  queryClient.setQueryData<TRollout>(key, { ...cached, status: event.status, currentWave: event.currentWave, counts: event.counts });
  void queryClient.invalidateQueries({ queryKey: key });
  return true;
}
