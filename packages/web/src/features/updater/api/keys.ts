/** Query keys of the Updater, its saved selections and rollouts (spec 3 §2.8, §7 Updater and batch; DESIGN §15). */
import type { UpdaterMode, UpdaterTargetQuery } from '../use-updater-params';

export const updaterKeys = {
  all: ['updater'] as const,
  targets: (mode: UpdaterMode) => [...updaterKeys.all, 'targets', mode] as const,
  targetPage: (mode: UpdaterMode, query: UpdaterTargetQuery, page: { startIndex: number; limit: number }) =>
    [...updaterKeys.targets(mode), query, page] as const,
  selections: () => [...updaterKeys.all, 'selections'] as const,
  defaultConfigs: (kind: 'component' | 'deployer', ids: readonly number[]) => [...updaterKeys.all, 'default-configs', kind, ids] as const,
  currentConfigs: (kind: 'component' | 'deployer', ids: readonly number[]) => [...updaterKeys.all, 'current-configs', kind, ids] as const,
};

/** Rollouts: the list pages, one rollout, and its target pages. */
export interface RolloutTargetsPage {
  startIndex: number;
  limit: number;
  wave?: number;
  state?: string;
}

export const rolloutKeys = {
  all: ['rollouts'] as const,
  lists: () => [...rolloutKeys.all, 'list'] as const,
  list: (page: { startIndex: number; limit: number; status?: string }) => [...rolloutKeys.lists(), page] as const,
  detail: (id: number) => [...rolloutKeys.all, 'detail', id] as const,
  targets: (id: number) => [...rolloutKeys.all, 'targets', id] as const,
  targetPage: (id: number, page: RolloutTargetsPage) => [...rolloutKeys.targets(id), page] as const,
};
