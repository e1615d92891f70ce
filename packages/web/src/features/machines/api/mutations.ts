/**
 * Changes made from the machines panel (spec 2 §2.2–2.4, §4, §7 Machines; toasts
 * of spec 2 §8: success 2 s, error 5 s), one hook per call. Error toasts carry
 * the specification's text followed by the server's detail when it has one.
 *
 * A task in an answer goes straight into the cache (`applyTask`), so the row's
 * buttons wait at once; the machine is then re-read for its new flags.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TConfigMap,
  TCreateConfigDefinitionRequest,
  TCreateMachineRequest,
  TMachine,
  TSendNotificationRequest,
  TTask,
  TUpdateMachineRequest,
} from '@fleet/contracts';
import { api, ApiError } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { CONFIG_FIELD, configDefinitionKeys, machineKeys, notificationKeys, type ConfigKind } from './keys';
import type { TConfigDefinition } from './queries';
import { applyMachine, applyTask, invalidateListsOf, refreshMachine, updateMachineRows, writeMachine } from './task-cache';

/** The specification's error text, with the server's detail after it when there is one. */
export function withDetail(text: string, error: unknown): string {
  return error instanceof ApiError && error.detail ? `${text}: ${error.detail}` : text;
}

interface MachineRef {
  id: number;
  name: string;
}

type Action = 'start' | 'stop' | 'terminate' | 'recreate';

const ACTION_TOASTS: Record<Action, { success?: string; error: string }> = {
  // Start and stop have no success toast (spec 2 §8): the row shows the task.
  start: { error: 'Error occurred starting machine' },
  stop: { error: 'Error occurred stopping machine' },
  terminate: { success: 'Machine termination has been initiated', error: 'Error occurred terminating machine' },
  recreate: { success: 'Machine recreation has been initiated', error: 'Error occurred recreating machine' },
};

/** `POST /machines/{id}/{action}`: queues the action's task (answer: the task). */
function useMachineAction(action: Action) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const toasts = ACTION_TOASTS[action];
  return useMutation({
    mutationFn: (machine: MachineRef) => api.post<TTask>(`machines/${machine.id}/${action}`),
    onSuccess: (task) => {
      if (toasts.success) toast.success(toasts.success);
      applyTask(queryClient, task);
      void refreshMachine(queryClient, task.machineId);
    },
    onError: (error) => toast.error(withDetail(toasts.error, error)),
  });
}

/** `POST /machines/{id}/start` (clears stop and idle). */
export const useStartMachine = () => useMachineAction('start');
/** `POST /machines/{id}/stop` (sets stop). */
export const useStopMachine = () => useMachineAction('stop');
/** `POST /machines/{id}/terminate`: 'Machine termination has been initiated' / 'Error occurred terminating machine'. */
export const useTerminateMachine = () => useMachineAction('terminate');
/** `POST /machines/{id}/recreate`: 'Machine recreation has been initiated' / 'Error occurred recreating machine'. */
export const useRecreateMachine = () => useMachineAction('recreate');

/** `POST /machines/{id}/reset-failure-state`: clears needsAdmin and the fail counter (answer: the machine). */
export function useResetFailureState() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (machine: MachineRef) => api.post<TMachine>(`machines/${machine.id}/reset-failure-state`),
    onSuccess: (machine) => {
      applyMachine(queryClient, machine);
      toast.success('Failure state has been reset for machine');
    },
    onError: (error) => toast.error(withDetail('Error occurred resetting machine failure state', error)),
  });
}

/** `POST /machines/{id}/change-instance-type` with `instanceTypeId` (answer: the ChangeInstanceType task). */
export function useChangeInstanceType() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ machine, instanceTypeId }: { machine: MachineRef; instanceTypeId: number }) =>
      api.post<TTask>(`machines/${machine.id}/change-instance-type`, { instanceTypeId }),
    onSuccess: (task) => {
      applyTask(queryClient, task);
      toast.success('Instance type changed for machine');
    },
    onError: (error) => toast.error(withDetail('Error occurred changing instance type for machine', error)),
  });
}

/** The switches of spec 2 §2.2 that `PATCH /accounts/{id}/machines/{machineId}` toggles. */
export type MachineSwitch = 'managed' | 'manualMaintenance' | 'turbo' | 'runSmokeTest' | 'overseeTermination';

/**
 * `PATCH /accounts/{id}/machines/{machineId}` (spec 2 §8, update machine): the
 * call, and the answer put into the cache with 'Machine has been updated', or
 * 'Error occurred updating machine'.
 */
function useMachinePatch() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return {
    queryClient,
    patch: (machine: TMachine, body: TUpdateMachineRequest) =>
      writeMachine(machine.id, () => api.patch<TMachine>(`accounts/${machine.accountId}/machines/${machine.id}`, body)),
    /** Puts the answer into the rows (unless `apply` is false) and says the machine has been updated. */
    onSuccess: (machine: TMachine, apply = true) => {
      if (apply) applyMachine(queryClient, machine);
      toast.success('Machine has been updated');
    },
    onError: (error: unknown) => toast.error(withDetail('Error occurred updating machine', error)),
  };
}

/** The switch changes' mutation key and scope: they reach the server one at a time, in the order they were made. */
const SWITCH_MUTATION = ['machine-switch'];

type TSwitchChange = { machine: TMachine; field: MachineSwitch; value: boolean };

/**
 * `PATCH /accounts/{id}/machines/{machineId}` with one switch, optimistically:
 * the row changes at once and the switch reverts when the call fails
 * ('Error occurred updating machine'); success 'Machine has been updated'.
 *
 * Changes run one after another (a quick second click cannot overtake the
 * first at the server). The answer of a change goes into the row only when no
 * later change of the machine is waiting, and the lists showing the machine
 * are read again after the last one, so that a read of the lists that crossed
 * a change cannot leave the switch showing the state from before it.
 */
export function useUpdateMachineSwitch() {
  const { queryClient, patch, onSuccess, onError } = useMachinePatch();
  // This change and the ones of the same machine waiting behind it.
  const changesOf = (machineId: number) =>
    queryClient
      .getMutationCache()
      .findAll({ mutationKey: SWITCH_MUTATION, status: 'pending', predicate: (m) => (m.state.variables as TSwitchChange | undefined)?.machine.id === machineId }).length;
  return useMutation({
    mutationKey: SWITCH_MUTATION,
    scope: { id: SWITCH_MUTATION.join() },
    mutationFn: ({ machine, field, value }: TSwitchChange) => patch(machine, { [field]: value }),
    onMutate: async ({ machine, field, value }) => {
      await queryClient.cancelQueries({ queryKey: machineKeys.lists() });
      updateMachineRows(queryClient, machine.id, (m) => ({ ...m, [field]: value }));
      return { before: machine[field] };
    },
    onError: (error, { machine, field }, context) => {
      // Only the toggled field goes back: the rest of the row may have changed since.
      if (context) updateMachineRows(queryClient, machine.id, (m) => ({ ...m, [field]: context.before }));
      onError(error);
    },
    onSuccess: (machine) => onSuccess(machine, changesOf(machine.id) === 1),
    onSettled: (_answer, _error, { machine }) => {
      if (changesOf(machine.id) === 1) void invalidateListsOf(queryClient, { machineId: machine.id });
    },
  });
}

/** `POST /accounts/{id}/machines` (isLauncher, siteId, accountId): creates the machine and queues CreateMachine. */
export function useCreateMachine() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TCreateMachineRequest) =>
      api.post<{ machine: TMachine; task: TTask }>(`accounts/${body.accountId}/machines`, body),
    onSuccess: ({ machine }) =>
      Promise.all([
        invalidateListsOf(queryClient, { machineId: machine.id, accountId: machine.accountId }),
        queryClient.invalidateQueries({ queryKey: machineKeys.creatable(machine.accountId) }),
      ]),
    onError: (error) => toast.error(withDetail('Error occurred creating machine', error)),
  });
}

/** `POST /machines/{id}/tasks/{taskId}/cancel`: cancels a New task (409 otherwise, shown with the server's detail). */
export function useCancelTask() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (task: Pick<TTask, 'id' | 'machineId'>) => api.post<TTask>(`machines/${task.machineId}/tasks/${task.id}/cancel`),
    onSuccess: (task) => applyTask(queryClient, task),
    onError: (error) => toast.error(withDetail('Error occurred cancelling task', error)),
  });
}

/** `POST /notification/send`: 'Message queued for sending' / 'Error occurred sending message' (spec 2 §8). */
export function useSendNotification() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TSendNotificationRequest) => api.post<{ queued: number }>('notification/send', body),
    onSuccess: () => {
      toast.success('Message queued for sending');
      return queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
    onError: (error) => toast.error(withDetail('Error occurred sending message', error)),
  });
}

/**
 * `PATCH /accounts/{id}/machines/{machineId}` with `classId`: switches the
 * machine's MMA class (spec 2 §2.3, §4). 'Machine has been updated' / 'Error
 * occurred updating machine' (spec 2 §8, update machine).
 */
export function useSwitchMachineClass() {
  const { patch, onSuccess, onError } = useMachinePatch();
  return useMutation({
    mutationFn: ({ machine, classId }: { machine: TMachine; classId: number }) => patch(machine, { classId }),
    onSuccess: (machine) => onSuccess(machine),
    onError,
  });
}

const CONFIG_TOASTS: Record<ConfigKind, { success: string; error: string }> = {
  component: { success: 'Machine component config has been saved', error: 'Error occurred saving machine component config' },
  deployer: { success: 'Machine deployer config has been saved', error: 'Error occurred saving machine deployer config' },
};

/** A field error's leading `componentConfig.` or `deployerConfig.`. */
const CONFIG_FIELD_PREFIX = new RegExp(`^(${Object.values(CONFIG_FIELD).join('|')})\\.`);

/** The server's first field error (`componentConfig.<key>: message`), else its detail. */
function configErrorText(text: string, error: unknown): string {
  const first = error instanceof ApiError ? error.errors[0] : undefined;
  return first ? `${text}: ${first.propertyName.replace(CONFIG_FIELD_PREFIX, '')}: ${first.errorMessage}` : withDetail(text, error);
}

/**
 * `PUT /machines/{id}/component-config` (body `componentConfig`) or
 * `PUT /machines/{id}/deployer-config` (body `deployerConfig`): the machine's
 * whole configuration of the kind (answer: the machine). Toasts of spec 2 §8
 * 'Save component config' / 'Save deployer config'.
 */
export function useSaveMachineConfig(kind: ConfigKind) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const toasts = CONFIG_TOASTS[kind];
  return useMutation({
    mutationFn: ({ machine, config }: { machine: MachineRef; config: TConfigMap }) =>
      api.put<TMachine>(`machines/${machine.id}/${kind}-config`, { [CONFIG_FIELD[kind]]: config }),
    onSuccess: (machine) => {
      applyMachine(queryClient, machine);
      toast.success(toasts.success);
    },
    onError: (error) => toast.error(configErrorText(toasts.error, error)),
  });
}

/**
 * `POST /component-configs` or `POST /deployer-configs` (rootKey, subKey,
 * dataType): a definition for a key the catalogue lacks (spec 2 §5), answering
 * it. Error 'Error occurred saving component config' (spec 3 §8, also used for
 * deployer configs); no success toast, since the editor shows the new key at once.
 */
export function useCreateConfigDefinition(kind: ConfigKind) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (body: TCreateConfigDefinitionRequest) => api.post<TConfigDefinition>(`${kind}-configs`, body),
    onSuccess: (created) => {
      queryClient.setQueryData<TConfigDefinition[]>(configDefinitionKeys.catalogue(kind), (old) => (old ? [...old, created] : old));
      // The editor has the new definition already: the reload (up to 1000 definitions) is not awaited.
      void queryClient.invalidateQueries({ queryKey: configDefinitionKeys.catalogue(kind) });
    },
    onError: (error) => toast.error(withDetail('Error occurred saving component config', error)),
  });
}
