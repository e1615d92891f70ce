/**
 * Machine calls (spec 2 §4, §7 Machines; DESIGN §5, §6): lists, one machine,
 * the lifecycle actions that queue tasks, reset failure state, flag and class
 * updates, creatable and new machines, a machine's tasks and their cancelling,
 * the machine lookup.
 *
 * Rules:
 * - Machines of class Customer Production, or of an account of that class, are
 *   invisible without group CustomerProductionAccess: absent from lists and
 *   lookups, 404 by id. Such a user cannot move a machine into that class (403).
 * - Start sets stop and idle to false; stop sets stop; terminate and recreate set
 *   the terminate marker (spec 2 §4). Each queues its task in the transaction of
 *   the change and its audit; the engine runs it.
 * - A machine with an unfinished TerminateMachine task takes no new task (409).
 * - Only a New task can be cancelled (409 otherwise).
 * - A credential read needs write (the route says so) and is audited (ViewCredential).
 * - Changing the sample data (sampleData or sampleDataFile) queues a
 *   ReinstallSampleData operation with the new choice, caused by the UpdateMachine
 *   activity (spec 2 §2.3 Reinstall Sample Data).
 * - Every task queued here records the activity that caused it (DESIGN §12 one trail).
 */
import {
  CLASS_CUSTOMER_PRODUCTION,
  type TCreateMachineRequest,
  type TMachine,
  type TMachineCredential,
  type TMachineDetail,
  type TMachinesPage,
  type TTask,
  type TTaskType,
  type TUpdateMachineRequest,
  type TMachineLookupParsedQuery,
} from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { hasCustomerProductionAccess, hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest, conflict, forbidden, HttpProblem, notFound, unprocessable } from '../../lib/problem.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { diffChanges, type AuditEntry, type AuditService } from '../audit/audit.service.js';
import { findVisibleAccount } from '../accounts/accounts.repository.js';
import type { TaskQueue, TaskRequest } from '../../engine/tasks/queue.js';
import { cancelNewTask, selectMachineTasks, toTask } from '../../engine/tasks/tasks.repository.js';
import { operationMachine, type OperationQueue } from '../../engine/operations/queue.js';
import { DEFAULT_INSTANCE_TYPE_ID } from '../../engine/tasks/machine-state.repository.js';
import type { TaskEvents } from '../../engine/push/events.js';
import * as repo from './machines.repository.js';
import { selectMachine, selectMachinePageText } from './machines-page.repository.js';
import { selectMachineBackups } from '../backups/backups.repository.js';
import { selectMachineRecordFields } from './machine-record.js';
import { creatableMachines, newMachineValues } from './machine-plan.js';
import { defaultsFor } from '../machine-configs/config-rules.js';
import { selectComponentDefinitions, selectSubstitutionFacts } from '../machine-configs/machine-configs.repository.js';
import { jsonText } from '../../lib/json-text.js';
import { sharedRead } from '../../lib/coalesce.js';
import { applyDesiredState } from '../../engine/desired-state/desired-state.js';
import type { MachineFilter } from './fleet-counts.js';

type Page = { startIndex: number; limit: number };
type ByMachine = { principal: Principal; machineId: number };

/** The lifecycle actions that queue a task (spec 2 §4): the flags each sets and its audit action. */
const ACTIONS = {
  start: { type: 'StartMachine', flags: { stop: false, idle: false } },
  stop: { type: 'StopMachine', flags: { stop: true } },
  terminate: { type: 'TerminateMachine', flags: { terminate: true } },
  recreate: { type: 'RecreateMachine', flags: { terminate: true } },
} as const satisfies Record<string, { type: TTaskType; flags: Partial<Record<'stop' | 'idle' | 'terminate', boolean>> }>;
export type MachineAction = keyof typeof ACTIONS;

export interface MachineService {
  /**
   * `GET /machines`: visible machines, of one account or the one `machineId`, narrowed by the top bar chips'
   * filters (fleet-counts.ts) and by the Updater's machine filter (`classIds`, `search`; spec 3 §2.8); the
   * whole unfiltered fleet's total is capped.
   */
  list(o: {
    principal: Principal;
    query: Page & { accountId?: number; machineId?: number; classIds?: number[]; search?: string; sort?: 'name'; order?: 'asc' | 'desc' } & MachineFilter;
  }): Promise<TMachinesPage>;
  listForAccount(o: { principal: Principal; accountId: number; query: Page }): Promise<{ items: TMachine[]; totalItems: number }>;
  /** The machine with its own backup files, cloud instances and Grafana link (ZMachineDetail). */
  get(o: ByMachine): Promise<TMachineDetail>;
  /** Queues the action's task after setting its flags; audited with the action's name. */
  act(o: ByMachine & { action: MachineAction }): Promise<TTask>;
  resetFailureState(o: ByMachine): Promise<TMachine>;
  changeInstanceType(o: ByMachine & { instanceTypeId: number }): Promise<TTask>;
  update(o: ByMachine & { accountId: number; patch: TUpdateMachineRequest }): Promise<TMachine>;
  creatable(o: { principal: Principal; accountId: number }): Promise<ReturnType<typeof creatableMachines>>;
  create(o: { principal: Principal; accountId: number; body: TCreateMachineRequest }): Promise<{ machine: TMachine; task: TTask }>;
  tasks(o: ByMachine & { query: Page }): Promise<{ items: TTask[]; totalItems: number }>;
  cancelTask(o: ByMachine & { taskId: number }): Promise<TTask>;
  /** Visible machines for pickers: `search` in the name, among `ids`, at most `limit` (spec 2 §7). */
  lookup(o: { principal: Principal; query: TMachineLookupParsedQuery }): ReturnType<typeof repo.selectMachineLookup>;
  /** The decrypted credential; 404 'Credentials not found' when the machine has none. Audited. */
  credential(o: ByMachine): Promise<TMachineCredential>;
}

export function createMachineService({
  db,
  audit,
  tasks,
  events,
  secrets,
  operations,
  grafanaUrl = null,
}: {
  db: Db;
  audit: AuditService;
  tasks: TaskQueue;
  events: TaskEvents;
  secrets: SecretBox;
  /** Queues ReinstallSampleData when the sample data changes. */
  operations: OperationQueue;
  /** The provider's Grafana (`GRAFANA_URL`) of the machines' `grafanaUrl`; null (default): no link. */
  grafanaUrl?: string | null;
}): MachineService {
  /** A page as JSON text; the consoles polling the same list share each read (lib/coalesce.ts). */
  const pageText = sharedRead(selectMachinePageText, db);

  async function mustFind(tx: DbOrTx, principal: Principal, id: number, opts: { accountId?: number; forUpdate?: boolean } = {}) {
    const found = await repo.findVisibleMachine(tx, { id, hiddenClassIds: hiddenClassIds(principal), ...opts });
    if (!found) throw notFound(`Machine ${id}`);
    return found;
  }

  async function answer(principal: Principal, id: number): Promise<TMachine> {
    const machine = await selectMachine(db, id, hiddenClassIds(principal));
    if (!machine) throw notFound(`Machine ${id}`);
    return machine;
  }

  /**
   * Queues the machine's task with the activity that caused it (the activity's params get `taskId`);
   * 409 when the machine is being terminated. The machine row must be locked.
   */
  async function enqueueAudited(tx: DbOrTx, request: TaskRequest, entry: AuditEntry) {
    const inserted = await tasks.enqueueWithActivity(tx, request, entry);
    if (!inserted) throw conflict(`Machine ${request.machine.name} is being terminated`);
    return inserted;
  }

  const taskMachine = ({ machine, account }: repo.VisibleMachine) => ({
    id: machine.id,
    name: machine.name,
    accountId: machine.accountId,
    classId: machine.classId,
    accountClassId: account.classId,
  });

  async function mustFindAccount(tx: DbOrTx, principal: Principal, accountId: number) {
    const account = await findVisibleAccount(tx, accountId, hiddenClassIds(principal));
    if (!account) throw notFound(`Account ${accountId}`);
    return account;
  }

  return {
    // The page as PostgreSQL writes it, sent as it is (lib/json-text.ts).
    list: async ({ principal, query: { machineId, accountId, startIndex, limit, classIds, search, sort, order, ...filter } }) => {
      const classList = classIds?.length ? classIds : undefined;
      const name = search?.trim() || undefined;
      return jsonText(
        await pageText({
          accountId,
          ids: machineId !== undefined ? [machineId] : undefined,
          classIds: classList,
          search: name,
          byName: sort === 'name' ? (order ?? 'asc') : undefined,
          startIndex,
          limit,
          filter,
          // A list a chip opens counts exactly: its total is the top bar's chip (fleet-counts.ts: a class, statuses
          // true), as is the Updater's 'select all' count. The whole fleet, or a status that must be false (most
          // of the fleet: 110 ms to count exactly on the scale fleet), is counted to the cap.
          capTotal:
            accountId === undefined &&
            machineId === undefined &&
            classList === undefined &&
            name === undefined &&
            (Object.values(filter).every((v) => v === undefined) || Object.values(filter).includes(false)),
          withCapped: true,
          hiddenClassIds: hiddenClassIds(principal),
        }),
      );
    },

    async listForAccount({ principal, accountId, query }) {
      await mustFindAccount(db, principal, accountId);
      return jsonText(await pageText({ ...query, accountId, hiddenClassIds: hiddenClassIds(principal) }));
    },

    async get({ principal, machineId }) {
      const machine = await answer(principal, machineId);
      const [backups, record] = await Promise.all([selectMachineBackups(db, machineId), selectMachineRecordFields(db, { machineId, grafanaUrl })]);
      return { ...machine, ...record, ...backups };
    },

    async act({ principal, machineId, action }) {
      const { type, flags } = ACTIONS[action];
      const queued = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId, { forUpdate: true });
        const changes = diffChanges('Machine', found.machine, flags);
        // An unchanged row is not written: the machine status triggers stay quiet.
        if (changes.length > 0) await repo.updateMachineFields(tx, machineId, flags);
        const { queued } = await enqueueAudited(tx, { machine: taskMachine(found), type }, {
          action: type,
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name },
          changes,
        });
        return queued;
      });
      tasks.announce([queued]);
      return queued.task;
    },

    async resetFailureState({ principal, machineId }) {
      await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId, { forUpdate: true });
        const values = { needsAdmin: false, failCounter: 0 };
        await repo.updateMachineFields(tx, machineId, values);
        await audit.record(tx, {
          action: 'ResetFailureState',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name },
          changes: diffChanges('Machine', found.machine, values),
        });
      });
      return answer(principal, machineId);
    },

    async changeInstanceType({ principal, machineId, instanceTypeId }) {
      const queued = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId, { forUpdate: true });
        const type = await repo.findMachineInstanceType(tx, instanceTypeId);
        if (!type) {
          throw badRequest([{ propertyName: 'instanceTypeId', errorMessage: 'Unknown machine instance type', attemptedValue: instanceTypeId }]);
        }
        if (found.machine.instanceTypeId === instanceTypeId) {
          throw unprocessable(`Machine ${found.machine.name} already has instance type ${type.name}`);
        }
        const request: TaskRequest = {
          machine: taskMachine(found),
          type: 'ChangeInstanceType',
          description: `Change instance type of ${found.machine.name} to ${type.name}`,
          params: { instanceTypeId },
        };
        const { queued } = await enqueueAudited(tx, request, {
          action: 'ChangeInstanceType',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, instanceTypeId, instanceTypeName: type.name },
          changes: [{ entityName: 'Machine', propertyName: 'instanceTypeId', oldValue: found.machine.instanceTypeId, newValue: instanceTypeId }],
        });
        return queued;
      });
      tasks.announce([queued]);
      return queued.task;
    },

    async update({ principal, accountId, machineId, patch }) {
      if (patch.classId === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(principal)) {
        throw forbidden('Moving a machine into Customer Production needs group CustomerProductionAccess');
      }
      const queued = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId, { accountId, forUpdate: true });
        const values: Partial<repo.MachineRow> = { ...patch };
        const sampleData = patch.sampleData ?? found.machine.sampleData;
        const touchesSampleData = patch.sampleData !== undefined || patch.sampleDataFile !== undefined;
        if (touchesSampleData && sampleData !== 'Select') values.sampleDataFile = null;
        else if (touchesSampleData && !(patch.sampleDataFile ?? found.machine.sampleDataFile)) {
          throw badRequest([{ propertyName: 'sampleDataFile', errorMessage: 'A file is needed when sample data is Select', attemptedValue: patch.sampleDataFile ?? null }]);
        }
        const changes = diffChanges('Machine', found.machine, values);
        if (changes.length === 0) return [];
        await repo.updateMachineFields(tx, machineId, values);
        const activityId = await audit.record(tx, {
          action: 'UpdateMachine',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, ...patch },
          changes,
        });
        // A new sample data choice is installed by the agent (spec 2 §2.3 Reinstall Sample Data).
        if (!changes.some((c) => c.propertyName === 'sampleData' || c.propertyName === 'sampleDataFile')) return [];
        const params = { sampleData, sampleDataFile: values.sampleDataFile !== undefined ? values.sampleDataFile : found.machine.sampleDataFile };
        return operations.enqueue(tx, [
          { machine: operationMachine(found), typeName: 'ReinstallSampleData', user: principal.username, activityId, params },
        ]);
      });
      operations.announce(queued);
      return answer(principal, machineId);
    },

    async creatable({ principal, accountId }) {
      await mustFindAccount(db, principal, accountId);
      return creatableMachines(await repo.selectMachinePlanFacts(db, accountId));
    },

    async create({ principal, accountId, body }) {
      if (body.accountId !== accountId) {
        throw badRequest([{ propertyName: 'accountId', errorMessage: 'Must be the account of the path', attemptedValue: body.accountId }]);
      }
      const { machineId, queued } = await db.transaction(async (tx) => {
        const account = await findVisibleAccount(tx, accountId, hiddenClassIds(principal), true);
        if (!account) throw notFound(`Account ${accountId}`);
        const facts = await repo.selectMachinePlanFacts(tx, accountId);
        if (body.siteId !== null && !facts.sites.some((s) => s.id === body.siteId)) {
          throw badRequest([{ propertyName: 'siteId', errorMessage: 'Not a site of this account', attemptedValue: body.siteId }]);
        }
        const choice = creatableMachines(facts).find((c) => c.isLauncher === body.isLauncher && c.siteId === body.siteId);
        if (!choice) throw conflict('The account has no such machine to create (it exists already, or its instance policy has no such machine)');
        const values = newMachineValues(facts, choice);
        if (!(await repo.findMachineInstanceType(tx, values.instanceTypeId!))) values.instanceTypeId = DEFAULT_INSTANCE_TYPE_ID;
        const inserted = await repo.insertMachineRow(tx, values);
        const [substitution] = await selectSubstitutionFacts(tx, [inserted.id]);
        const componentConfig = defaultsFor(await selectComponentDefinitions(tx), substitution!);
        await repo.updateMachineFields(tx, inserted.id, { componentConfig });
        const machine = { ...inserted, componentConfig };
        const { queued, activityId } = await enqueueAudited(tx, { machine: taskMachine({ machine, account }), type: 'CreateMachine' }, {
          action: 'CreateMachine',
          user: principal.username,
          accounts: [account],
          params: { machineId: machine.id, name: machine.name, isLauncher: body.isLauncher, siteId: body.siteId },
        });
        // Its desired versions are its account's, resolved (DESIGN §12), from the start.
        await applyDesiredState(tx, { accountIds: [accountId], activityId });
        return { machineId: machine.id, queued };
      });
      tasks.announce([queued]);
      return { machine: await answer(principal, machineId), task: queued.task };
    },

    async tasks({ principal, machineId, query }) {
      await mustFind(db, principal, machineId);
      return selectMachineTasks(db, { machineId, ...query });
    },

    async cancelTask({ principal, machineId, taskId }) {
      const { task, classIds } = await db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId);
        const result = await cancelNewTask(tx, { machineId, taskId });
        if (!result) throw notFound(`Task ${taskId} of machine ${machineId}`);
        if (!('cancelled' in result)) throw conflict(`Task ${taskId} is ${result.status}; only a New task can be cancelled`);
        await audit.record(tx, {
          action: 'CancelTask',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name, taskId, type: result.cancelled.type },
          changes: [{ entityName: 'Task', propertyName: 'status', oldValue: 'New', newValue: 'Cancelled' }],
        });
        return { task: toTask(result.cancelled), classIds: [found.machine.classId, found.account.classId] };
      });
      events.emit({ name: 'TaskFinished', task, classIds });
      return task;
    },

    lookup: ({ principal, query }) =>
      repo.selectMachineLookup(db, {
        hiddenClassIds: hiddenClassIds(principal),
        search: query.search || undefined,
        ids: query.ids,
        limit: query.limit,
      }),

    async credential({ principal, machineId }) {
      return db.transaction(async (tx) => {
        const found = await mustFind(tx, principal, machineId);
        const sealed = await repo.selectCredential(tx, machineId);
        if (!sealed) throw new HttpProblem(404, 'Not Found', `Credentials not found for machine ${found.machine.name}`);
        await audit.record(tx, {
          action: 'ViewCredential',
          user: principal.username,
          accounts: [found.account],
          params: { machineId, machineName: found.machine.name },
        });
        return { rdpPassword: secrets.open(sealed.rdpPasswordEnc), sshPrivateKey: secrets.open(sealed.sshPrivateKeyEnc) };
      });
    },
  };
}
