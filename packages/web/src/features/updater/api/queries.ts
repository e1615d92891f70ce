/**
 * Reads of the Updater (spec 3 §2.8, §7 Updater and batch; DESIGN §15), one hook
 * per call. Every route needs permission write (the page is write-only).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  TRollout,
  TRolloutTarget,
  TRolloutsResponse,
  TSavedSelection,
  TTargetIdsResponse,
  TUpdaterAccount,
  TUpdaterMachine,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import type { UpdaterMode, UpdaterTargetQuery } from '../use-updater-params';
import { rolloutKeys, updaterKeys, type RolloutTargetsPage } from './keys';

export type UpdaterTarget = TUpdaterMachine | TUpdaterAccount;
/** `{items, totalItems}` of a paged answer (`zPaged` of the contracts). */
export interface Paged<T> {
  items: T[];
  totalItems: number;
}
type TargetsResponse = Paged<TUpdaterMachine> | Paged<TUpdaterAccount>;

/** The path segment of each mode's target list. */
export const TARGET_PATH: Record<UpdaterMode, string> = { machine: 'updater/machines', account: 'updater/accounts' };

/** `GET /updater/machines` or `/updater/accounts`: one page of targets matching `query`. */
export function useUpdaterTargets(mode: UpdaterMode, query: UpdaterTargetQuery, page: { startIndex: number; limit: number }) {
  return useQuery({
    queryKey: updaterKeys.targetPage(mode, query, page),
    queryFn: ({ signal }) => api.get<TargetsResponse>(TARGET_PATH[mode], { searchParams: { ...query, ...page }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET /updater/machines/ids` or `/updater/accounts/ids`: every matching id (at most 10,000) and the number of matches. */
export function fetchTargetIds(mode: UpdaterMode, query: UpdaterTargetQuery): Promise<TTargetIdsResponse> {
  return api.get<TTargetIdsResponse>(`${TARGET_PATH[mode]}/ids`, { searchParams: { ...query } });
}

/** `GET /updater/selections`: the saved selections (every user with write sees them all). */
export function useSavedSelections() {
  return useQuery({
    queryKey: updaterKeys.selections(),
    queryFn: ({ signal }) => api.get<TSavedSelection[]>('updater/selections', { signal }),
  });
}

/** `GET /rollouts`: one page of rollouts, newest first. */
export function useRollouts(page: { startIndex: number; limit: number; status?: string }) {
  return useQuery({
    queryKey: rolloutKeys.list(page),
    queryFn: ({ signal }) => api.get<TRolloutsResponse>('rollouts', { searchParams: { ...page }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: ROLLOUT_POLL_MS,
  });
}

/** The slow poll behind the push channel's RolloutProgress events, milliseconds. */
export const ROLLOUT_POLL_MS = 15_000;

/** `GET /rollouts/{id}`: the rollout with its waves; polled slowly while it can still move. */
export function useRollout(id: number) {
  return useQuery({
    queryKey: rolloutKeys.detail(id),
    queryFn: ({ signal }) => api.get<TRollout>(`rollouts/${id}`, { signal }),
    refetchInterval: (query) => (isSettled(query.state.data) ? false : ROLLOUT_POLL_MS),
    retry: false,
  });
}

/** A rollout that will not move any more (aborted or completed). */
export function isSettled(rollout: Pick<TRollout, 'status'> | undefined): boolean {
  return rollout?.status === 'Aborted' || rollout?.status === 'Completed';
}

/** `GET /rollouts/{id}/targets`: one page of its targets, by wave and state. */
export function useRolloutTargets(id: number, page: RolloutTargetsPage, live: boolean) {
  return useQuery({
    queryKey: rolloutKeys.targetPage(id, page),
    queryFn: ({ signal }) => api.get<Paged<TRolloutTarget>>(`rollouts/${id}/targets`, { searchParams: { ...page }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? ROLLOUT_POLL_MS : false,
  });
}
