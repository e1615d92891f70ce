/**
 * Changes of the Updater (spec 3 §7 Updater and batch, §8 toasts; DESIGN §15),
 * one hook per call. Each takes `dryRun`; a dry run changes nothing and shows
 * no toast (the caller shows its diff). A real call shows the specification's
 * toast:
 *
 * - `PUT /machines/batch`: 'Machines updated' / 'Error occurred updating machines';
 * - `PUT /accounts/batch`: 'Accounts updated' / 'Error occurred updating accounts'
 *   (spec 3 §8 names only the error toasts of these two; the success texts are ours);
 * - `PUT /machines/batch/component-configs` ('Component configs for machines have
 *   been saved' / 'Error occurred updating component configs for machines') and
 *   `/deployer-configs` (deployer alike);
 * - `POST /software-update/update-machines|update-accounts`: 'Software update
 *   submitted' / 'Error occurred submitting software update';
 * - `POST /rollouts/{id}/pause|resume|abort`, `/waves/{wave}/approve|reject`,
 *   `/rollback`, saved selections: their own texts.
 *
 * An error answer naming targets (404 unknown or hidden ids, 422 refused
 * targets) lists them under the toast's title.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TBatchAccountsRequest,
  TBatchMachinesRequest,
  TBatchResult,
  TRollout,
  TSaveSelectionRequest,
  TSavedSelection,
  TUpdateAccountsRequest,
  TUpdateMachinesRequest,
} from '@fleet/contracts';
import { ApiError, api } from '../../../app/api-client';
import { useToast, type Toast } from '../../../app/toast';
import { activityKeys } from '../../activity/api/keys';
import { machineKeys } from '../../machines/api/keys';
import { rolloutKeys, updaterKeys } from './keys';

/** Shows `text`, with the targets or fields the problem names (at most 10 lines) or its detail. */
export function showProblem(toast: Toast, text: string, error: unknown): void {
  if (error instanceof ApiError && error.errors.length > 0) {
    const lines = error.errors.slice(0, 10).map((e) => `${e.propertyName}: ${e.errorMessage}`);
    if (error.errors.length > 10) lines.push(`and ${error.errors.length - 10} more`);
    toast.errorList(text, lines);
  } else if (error instanceof ApiError && error.detail) {
    toast.error(`${text}: ${error.detail}`);
  } else {
    toast.error(text);
  }
}

/** Marks the target lists, the activity log and the machine lists stale after a change. */
function useInvalidateAfterChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: updaterKeys.all });
    void queryClient.invalidateQueries({ queryKey: activityKeys.all });
    void queryClient.invalidateQueries({ queryKey: machineKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: rolloutKeys.lists() });
  };
}

/** A batch call with its toasts; `dryRun` calls show none. */
function useBatchCall<B extends { dryRun?: boolean }>(send: (body: B) => Promise<TBatchResult>, toasts: { success: string; error: string }) {
  const toast = useToast();
  const invalidate = useInvalidateAfterChange();
  return useMutation({
    mutationFn: send,
    onSuccess: (_result, body) => {
      if (body.dryRun) return;
      toast.success(toasts.success);
      invalidate();
    },
    onError: (error, body) => showProblem(toast, body.dryRun ? `${toasts.error} (dry run)` : toasts.error, error),
  });
}

/** `PUT /machines/batch`: managed, manual maintenance and class of the machines. */
export function useBatchMachines() {
  return useBatchCall((body: TBatchMachinesRequest) => api.put<TBatchResult>('machines/batch', body), {
    success: 'Machines updated',
    error: 'Error occurred updating machines',
  });
}

/** `PUT /accounts/batch`: managed, class and auto test of the accounts. */
export function useBatchAccounts() {
  return useBatchCall((body: TBatchAccountsRequest) => api.put<TBatchResult>('accounts/batch', body), {
    success: 'Accounts updated',
    error: 'Error occurred updating accounts',
  });
}

export const BATCH_CONFIG_TOASTS = {
  component: { success: 'Component configs for machines have been saved', error: 'Error occurred updating component configs for machines' },
  deployer: { success: 'Deployer configs for machines have been saved', error: 'Error occurred updating deployer configs for machines' },
} as const;

/** `PUT /machines/batch/component-configs` or `/deployer-configs`: each machine's whole configuration, keyed by machine id. */
export function useBatchConfigs(kind: 'component' | 'deployer') {
  const field = kind === 'component' ? 'componentConfigs' : 'deployerConfigs';
  return useBatchCall(
    (body: { configs: Record<string, Record<string, unknown>>; dryRun?: boolean }) =>
      api.put<TBatchResult>(`machines/batch/${kind}-configs`, { [field]: body.configs, dryRun: body.dryRun ?? false }),
    BATCH_CONFIG_TOASTS[kind],
  );
}

export type SoftwareUpdateBody = ({ kind: 'machine' } & TUpdateMachinesRequest) | ({ kind: 'account' } & TUpdateAccountsRequest);

/** `POST /software-update/update-machines` or `/update-accounts`: 'Software update submitted' / 'Error occurred submitting software update'. */
export function useSoftwareUpdate() {
  return useBatchCall(
    ({ kind, ...body }: SoftwareUpdateBody) =>
      api.post<TBatchResult>(kind === 'machine' ? 'software-update/update-machines' : 'software-update/update-accounts', body),
    { success: 'Software update submitted', error: 'Error occurred submitting software update' },
  );
}

export type RolloutAction = 'pause' | 'resume' | 'abort';
const ROLLOUT_TOASTS: Record<RolloutAction, { success: string; error: string }> = {
  pause: { success: 'Rollout paused', error: 'Error occurred pausing rollout' },
  resume: { success: 'Rollout resumed', error: 'Error occurred resuming rollout' },
  abort: { success: 'Rollout aborted', error: 'Error occurred aborting rollout' },
};

/** `POST /rollouts/{id}/pause|resume|abort`: the rollout as it is now goes straight into the cache. */
export function useRolloutAction(action: RolloutAction) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (id: number) => api.post<TRollout>(`rollouts/${id}/${action}`),
    onSuccess: (rollout) => {
      if (rollout && typeof rollout === 'object') queryClient.setQueryData(rolloutKeys.detail(rollout.id), rollout);
      toast.success(ROLLOUT_TOASTS[action].success);
    },
    onError: (error) => showProblem(toast, ROLLOUT_TOASTS[action].error, error),
    onSettled: (_r, _e, id) => {
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.targets(id) });
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.lists() });
    },
  });
}

export type WaveDecision = 'approve' | 'reject';
const WAVE_TOASTS: Record<WaveDecision, { success: string; error: string }> = {
  approve: { success: 'Wave approved', error: 'Error occurred approving wave' },
  reject: { success: 'Wave rejected: the rollout halted', error: 'Error occurred rejecting wave' },
};

/**
 * `POST /rollouts/{id}/waves/{wave}/approve|reject` with the reason (issue 25;
 * `wave` from 1): the rollout as it is now goes straight into the cache, its
 * targets and the activity log go stale.
 */
export function useWaveDecision(decision: WaveDecision) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (o: { id: number; wave: number; reason: string }) => api.post<TRollout>(`rollouts/${o.id}/waves/${o.wave}/${decision}`, { reason: o.reason }),
    onSuccess: (rollout) => {
      if (rollout && typeof rollout === 'object') queryClient.setQueryData(rolloutKeys.detail(rollout.id), rollout);
      toast.success(WAVE_TOASTS[decision].success);
    },
    onError: (error) => showProblem(toast, WAVE_TOASTS[decision].error, error),
    onSettled: (_r, _e, o) => {
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.detail(o.id) });
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.targets(o.id) });
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
    },
  });
}

/**
 * `POST /rollouts/{id}/rollback` (issue 25 point 3): with `dryRun` what the
 * rollback would put back (no toast, only an error one); else starts it:
 * 'Rollback started' / 'Error occurred starting rollback'. The rolled-back
 * rollout and the lists go stale.
 */
export function useRollback() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (o: { id: number; dryRun: boolean }) => api.post<TBatchResult>(`rollouts/${o.id}/rollback`, { dryRun: o.dryRun }),
    onSuccess: (_result, o) => {
      if (!o.dryRun) toast.success('Rollback started');
    },
    onError: (error, o) => showProblem(toast, o.dryRun ? 'Error occurred previewing rollback' : 'Error occurred starting rollback', error),
    onSettled: (_r, _e, o) => {
      if (o.dryRun) return;
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.detail(o.id) });
      void queryClient.invalidateQueries({ queryKey: rolloutKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
    },
  });
}

/** `POST /updater/selections`: 'Selection saved' / 'Error occurred saving selection'. */
export function useSaveSelection() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TSaveSelectionRequest) => api.post<TSavedSelection>('updater/selections', body),
    onSuccess: () => toast.success('Selection saved'),
    onError: (error) => showProblem(toast, 'Error occurred saving selection', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: updaterKeys.selections() }),
  });
}

/** `DELETE /updater/selections/{id}` (its owner or an admin): 'Selection deleted' / 'Error occurred deleting selection'. */
export function useDeleteSelection() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (id: number) => api.delete<unknown>(`updater/selections/${id}`),
    onSuccess: () => toast.success('Selection deleted'),
    onError: (error) => showProblem(toast, 'Error occurred deleting selection', error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: updaterKeys.selections() }),
  });
}
