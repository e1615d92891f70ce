/**
 * Folding machine and task changes into the TanStack Query cache (STYLE
 * "Live events straight into the query cache"; spec 2 §4 push channel, DESIGN §7).
 *
 * - A task (from a push event or a mutation's answer) replaces its copy, or is
 *   added, in the machine's row of every cached machine list and in the cached
 *   pages of the machine's tasks. A task never goes back to an earlier state
 *   (`isNewerOrSame`), so a late answer cannot undo a newer event.
 * - A machine (from a mutation's answer or `refreshMachine`) replaces its row in
 *   every cached list.
 * - `refreshMachine` reads `GET /machines/{id}` for what events do not carry
 *   (instance state, address); calls for one machine are coalesced. A 404 (the
 *   machine was terminated and deleted) reloads the lists that showed it. A
 *   read during which one of the console's writes of the machine began or
 *   ended (`writeMachine`) may predate the write: it is read again rather than
 *   put over the write's answer.
 */
import type { QueryClient } from '@tanstack/react-query';
import { MACHINE_UNFINISHED_TASKS, type TListMachinesResponse, type TMachine, type TTask, type TTaskListResponse } from '@fleet/contracts';
import { api, ApiError } from '../../../app/api-client';
import { isNewerOrSame, isUnfinished, mergeMachineOperations } from '../machine-status';
import { machineKeys, type MachineListQuery, type TaskPageQuery } from './keys';

/**
 * The machine's tasks in a cached list: unfinished first, then finished, newest
 * first within each, at most MACHINE_UNFINISHED_TASKS. The server's list carries
 * unfinished tasks only; the cache keeps a task that finished since, so that a
 * late event for it cannot make it look unfinished again.
 */
export function mergeMachineTasks(tasks: TTask[], task: TTask): TTask[] {
  const current = tasks.find((t) => t.id === task.id);
  if (current && !isNewerOrSame(task, current)) return tasks;
  const others = tasks.filter((t) => t.id !== task.id);
  const all = [...others, task].sort((a, b) => Number(isUnfinished(b)) - Number(isUnfinished(a)) || b.id - a.id);
  return all.slice(0, MACHINE_UNFINISHED_TASKS);
}

/** One page of tasks with `task` replaced, or added on top of the first page when it is new. */
function upsertTaskPage(page: TTaskListResponse, task: TTask, startIndex: number): TTaskListResponse {
  const index = page.items.findIndex((t) => t.id === task.id);
  if (index >= 0) {
    if (!isNewerOrSame(task, page.items[index]!)) return page;
    return { ...page, items: page.items.map((t) => (t.id === task.id ? task : t)) };
  }
  if (startIndex !== 0) return page;
  return { items: [task, ...page.items], totalItems: page.totalItems + 1 };
}

const listHas = (data: TListMachinesResponse | undefined, machineId: number) => data?.items.some((m) => m.id === machineId) ?? false;

/** Applies `update` to the machine's row in every cached list that shows it; answers whether any did. */
export function updateMachineRows(queryClient: QueryClient, machineId: number, update: (machine: TMachine) => TMachine): boolean {
  let found = false;
  for (const [key, data] of queryClient.getQueriesData<TListMachinesResponse>({ queryKey: machineKeys.lists() })) {
    if (!listHas(data, machineId)) continue;
    found = true;
    queryClient.setQueryData<TListMachinesResponse>(key, (old) =>
      old ? { ...old, items: old.items.map((m) => (m.id === machineId ? update(m) : m)) } : old,
    );
  }
  return found;
}

/**
 * Puts a task into the cache: the machine's row in every list and the machine's
 * task pages. Answers whether a cached list shows the machine.
 */
export function applyTask(queryClient: QueryClient, task: TTask): boolean {
  for (const [key, data] of queryClient.getQueriesData<TTaskListResponse>({ queryKey: machineKeys.tasks(task.machineId) })) {
    if (!data) continue;
    const page = key[key.length - 1] as TaskPageQuery;
    queryClient.setQueryData<TTaskListResponse>(key, upsertTaskPage(data, task, page.startIndex));
  }
  return updateMachineRows(queryClient, task.machineId, (m) => ({ ...m, tasks: mergeMachineTasks(m.tasks, task) }));
}

/** Replaces the machine's row in every cached list with the server's answer. */
export function applyMachine(queryClient: QueryClient, machine: TMachine): void {
  updateMachineRows(queryClient, machine.id, (old) => ({
    ...machine,
    // The answer may predate an event already applied: keep the newer copy of each task and operation.
    tasks: old.tasks.reduce((tasks, t) => mergeMachineTasks(tasks, t), machine.tasks),
    operations: old.operations.reduce((ops, o) => (machine.operations.some((m) => m.id === o.id) ? mergeMachineOperations(ops, o) : ops), machine.operations),
  }));
}

/** Reloads the lists that show the machine, or that list the account's machines. */
export function invalidateListsOf(queryClient: QueryClient, { machineId, accountId }: { machineId: number; accountId?: number }) {
  return queryClient.invalidateQueries({
    queryKey: machineKeys.lists(),
    predicate: (query) => {
      const listQuery = query.queryKey[query.queryKey.length - 1] as MachineListQuery;
      const data = query.state.data as TListMachinesResponse | undefined;
      return listHas(data, machineId) || (accountId !== undefined && (listQuery.accountId === undefined || listQuery.accountId === accountId));
    },
  });
}

const inFlight = new Map<number, { again: boolean }>();

/** Per machine, how many of the console's writes of it have begun or ended (only ever grows). */
const writes = new Map<number, number>();
const noteWrite = (machineId: number) => writes.set(machineId, (writes.get(machineId) ?? 0) + 1);

/**
 * Runs `write`, a change of the machine through the API, noting when it begins
 * and ends, so that a `refreshMachine` read under way meanwhile is read again
 * rather than put over the write's answer. Answers (or throws) what `write` does.
 */
export async function writeMachine<T>(machineId: number, write: () => Promise<T>): Promise<T> {
  noteWrite(machineId);
  try {
    return await write();
  } finally {
    noteWrite(machineId);
  }
}

/**
 * Reads one machine and puts it into every cached list that shows it. While a
 * read of the machine is under way, further calls ask for one more read after it.
 */
export async function refreshMachine(queryClient: QueryClient, machineId: number): Promise<void> {
  const running = inFlight.get(machineId);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  inFlight.set(machineId, state);
  try {
    do {
      state.again = false;
      const writesBefore = writes.get(machineId);
      try {
        const machine = await api.get<TMachine>(`machines/${machineId}`);
        // A write began or ended during the read: the answer may predate it.
        if (writes.get(machineId) === writesBefore) applyMachine(queryClient, machine);
        else state.again = true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) await invalidateListsOf(queryClient, { machineId });
        // Other failures are silent: the next event, poll or refresh reads again.
      }
    } while (state.again);
  } finally {
    inFlight.delete(machineId);
  }
}
