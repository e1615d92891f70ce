/** Query keys of the machines area (spec 2 §7 Machines, Notifications, Configs; spec 1 §7 Lookups). */

/** The two kinds of machine configuration (spec 2 §2.3 Component Configs and Deployer Config). */
export type ConfigKind = 'component' | 'deployer';

/** The machine config field of each kind (machine `config`, request and answer bodies). */
export const CONFIG_FIELD = { component: 'componentConfig', deployer: 'deployerConfig' } as const satisfies Record<ConfigKind, string>;
export type ConfigField = (typeof CONFIG_FIELD)[ConfigKind];

/**
 * The Updater's machine filter on a fleet-wide list (spec 3 §2.8; `GET
 * /machines?classIds&search`, the filter of `GET /updater/machines`): class ids
 * as a comma list, and a text the names contain. Absent keys are not sent.
 */
export interface MachineListFilter {
  classIds?: string;
  search?: string;
}

/** One page of a machine list: the machines of one account, or every visible machine (narrowed by `filter`). */
export interface MachineListQuery {
  /** Absent: every machine the user may see (`GET /machines`). */
  accountId?: number;
  /** With no `accountId`: only the machines matching it. */
  filter?: MachineListFilter;
  startIndex: number;
  limit: number;
}

/** One page of a machine's tasks. */
export interface TaskPageQuery {
  startIndex: number;
  limit: number;
}

export const machineKeys = {
  all: ['machines'] as const,
  lists: () => [...machineKeys.all, 'list'] as const,
  list: (query: MachineListQuery) => [...machineKeys.lists(), query] as const,
  allTasks: () => [...machineKeys.all, 'tasks'] as const,
  /** Every cached page of one machine's tasks (the prefix the push channel updates). */
  tasks: (machineId: number) => [...machineKeys.allTasks(), machineId] as const,
  taskPage: (machineId: number, page: TaskPageQuery) => [...machineKeys.tasks(machineId), page] as const,
  creatable: (accountId: number) => [...machineKeys.all, 'creatable', accountId] as const,
  instanceTypes: () => [...machineKeys.all, 'instance-types'] as const,
  /** The machine's credential: a secret, never kept once its dialog closes. */
  credential: (machineId: number) => [...machineKeys.all, 'credential', machineId] as const,
  defaultConfig: (kind: ConfigKind, machineId: number) => [...machineKeys.all, 'default-config', kind, machineId] as const,
};

/** The catalogues of config definitions (spec 2 §7 Configs; spec 3 §7). */
export const configDefinitionKeys = {
  all: ['config-definitions'] as const,
  catalogue: (kind: ConfigKind) => [...configDefinitionKeys.all, kind] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  pending: (page: TaskPageQuery) => [...notificationKeys.all, 'pending', page] as const,
};
