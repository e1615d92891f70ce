/**
 * Reads of the machines panel (spec 2 §2.2–2.4, §7 Machines, Notifications and
 * Configs; spec 1 §7 Lookups), one hook per call.
 *
 * Machine lists and task pages are kept current by the push channel
 * (`task-hub.ts`); while it is not connected they poll every 2 s as long as a
 * task they show is New or Running. Lookup failures are silent (spec 1 §8).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MAX_PAGE_LIMIT,
  type TComponentConfigDefinition,
  type TConfigMap,
  type TCreatableMachine,
  type TDeployerConfigDefinition,
  type TInstanceType,
  type TListMachinesResponse,
  type TMachineCredential,
  type TMachinesPage,
  type TPendingMessagesResponse,
  type TTaskListResponse,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { isUnfinished } from '../machine-status';
import { CONFIG_FIELD, configDefinitionKeys, machineKeys, notificationKeys, type ConfigField, type ConfigKind, type MachineListQuery, type TaskPageQuery } from './keys';
import { useTaskHubConnected } from './task-hub';

/** Poll interval while the push channel is down and a task is unfinished, milliseconds. */
export const TASK_FALLBACK_POLL_MS = 2000;

interface MachinesOptions {
  /** Reload every this many milliseconds (the Poll update checkbox), or never. */
  pollMs?: number;
}

/**
 * One page of machines: `GET /accounts/{id}/machines` for an account, else
 * `GET /machines` (with the query's `filter`: `classIds`, `search`). The
 * previous page stays shown while the next loads. `totalCapped` (fleet-wide
 * and unfiltered only): the total is a lower bound.
 */
export function useMachines(query: MachineListQuery, { pollMs }: MachinesOptions = {}) {
  const hubConnected = useTaskHubConnected();
  const { accountId, filter, startIndex, limit } = query;
  return useQuery({
    queryKey: machineKeys.list(query),
    queryFn: ({ signal }) =>
      accountId === undefined
        ? api.get<TMachinesPage>('machines', { searchParams: { ...filter, startIndex, limit }, signal })
        : api.get<TListMachinesResponse>(`accounts/${accountId}/machines`, { searchParams: { startIndex, limit }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => {
      const waiting = !hubConnected && (q.state.data?.items.some((m) => m.tasks.some(isUnfinished)) ?? false);
      if (waiting) return Math.min(TASK_FALLBACK_POLL_MS, pollMs ?? Infinity);
      return pollMs ?? false;
    },
  });
}

/** `GET /machines/{id}/tasks`: one page of the machine's tasks, newest first (the tasks drawer). */
export function useMachineTasks(machineId: number | undefined, page: TaskPageQuery) {
  const hubConnected = useTaskHubConnected();
  return useQuery({
    queryKey: machineKeys.taskPage(machineId ?? 0, page),
    queryFn: ({ signal }) => api.get<TTaskListResponse>(`machines/${machineId}/tasks`, { searchParams: { ...page }, signal }),
    enabled: machineId !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (!hubConnected && q.state.data?.items.some(isUnfinished) ? TASK_FALLBACK_POLL_MS : false),
  });
}

/** `GET /accounts/{id}/creatable-machines`: machines the account's instance policy still lacks. */
export function useCreatableMachines(accountId: number, enabled: boolean) {
  return useQuery({
    queryKey: machineKeys.creatable(accountId),
    queryFn: ({ signal }) => api.get<TCreatableMachine[]>(`accounts/${accountId}/creatable-machines`, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** `GET /cloud/instance-types`: machine instance types (silent on failure, spec 1 §8). */
export function useInstanceTypes(enabled: boolean) {
  return useQuery({
    queryKey: machineKeys.instanceTypes(),
    queryFn: ({ signal }) => api.get<TInstanceType[]>('cloud/instance-types', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** `GET /notification/messages`: one page of messages not yet delivered, newest first. */
export function usePendingMessages(page: TaskPageQuery, enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.pending(page),
    queryFn: ({ signal }) => api.get<TPendingMessagesResponse>('notification/messages', { searchParams: { ...page }, signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * `GET /machines/{id}/credential` (write permission; every read is audited):
 * the RDP password and SSH private key. Read once per opening of the credential
 * dialog, not retried, and dropped from the cache as soon as the dialog closes.
 * A 404 is the machine having none ('Credentials not found').
 */
export function useMachineCredential(machineId: number) {
  return useQuery({
    queryKey: machineKeys.credential(machineId),
    queryFn: ({ signal }) => api.get<TMachineCredential>(`machines/${machineId}/credential`, { signal }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** A config definition of either catalogue, as the machine config editors use it. */
export type TConfigDefinition = TComponentConfigDefinition | TDeployerConfigDefinition;

/**
 * `GET /component-configs` or `GET /deployer-configs` with `limit` 1000: the
 * catalogue of definitions (dataTypes, protected keys, sub-key suggestions).
 *
 * Known limitations: a catalogue of more than 1000 definitions is read in part.
 */
export function useConfigDefinitions(kind: ConfigKind) {
  return useQuery({
    queryKey: configDefinitionKeys.catalogue(kind),
    queryFn: async ({ signal }) =>
      (await api.get<{ items: TConfigDefinition[] }>(`${kind}-configs`, { searchParams: { startIndex: 0, limit: MAX_PAGE_LIMIT }, signal })).items,
    staleTime: 30_000,
  });
}

/**
 * `GET /machines/{id}/default-component-config` or `default-deployer-config`: the
 * machine's defaults from the catalogue. Failures are silent (spec 2 §8).
 */
export function useDefaultConfig(kind: ConfigKind, machineId: number) {
  return useQuery({
    queryKey: machineKeys.defaultConfig(kind, machineId),
    queryFn: async ({ signal }) => {
      const answer = await api.get<Partial<Record<ConfigField, TConfigMap>>>(`machines/${machineId}/default-${kind}-config`, { signal });
      return answer[CONFIG_FIELD[kind]] ?? {};
    },
    retry: false,
    staleTime: 30_000,
  });
}
