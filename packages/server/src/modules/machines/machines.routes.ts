/**
 * Machine calls (spec 2 §7 Machines): `GET /machines`, `GET /machines/{id}`, the
 * lifecycle actions `POST /machines/{id}/start|stop|terminate|recreate`,
 * `POST /machines/{id}/reset-failure-state`, `POST /machines/{id}/change-instance-type`,
 * `GET /machines/{id}/tasks`, `POST /machines/{id}/tasks/{taskId}/cancel`, the
 * account-scoped `GET|POST /accounts/{id}/machines`, `PATCH /accounts/{id}/machines/{machineId}`,
 * `GET /accounts/{id}/creatable-machines`, `GET /machines/{id}/credential` and `GET /lookup/machines`.
 * (`GET /machines/stats` is the fleet module's.) Mutations need `write` (app.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VIEWER_COUNT_AHEAD,
  ZAccountMachineParams,
  ZAccountMachinesQuery,
  ZChangeInstanceTypeRequest,
  ZCreatableMachinesResponse,
  ZCreateMachineRequest,
  ZCreateMachineResponse,
  ZIdParams,
  ZListMachinesQuery,
  ZListMachinesResponse,
  ZMachine,
  ZMachineCredential,
  ZMachineDetail,
  ZMachineLookupQuery,
  ZMachineLookupResponse,
  ZMachinesPage,
  ZTask,
  ZTaskListQuery,
  ZTaskListResponse,
  ZTaskParams,
  ZUpdateMachineRequest,
} from '@fleet/contracts';
import type { MachineAction } from './machines.service.js';

const ACTION_ROUTES: { action: MachineAction; operationId: string; summary: string; description: string }[] = [
  {
    action: 'start',
    operationId: 'startMachine',
    summary: 'Queue StartMachine (clears stop and idle)',
    description: 'Clears the stop and idle switches and queues a StartMachine task (spec 2 §2.3; DESIGN §6).',
  },
  {
    action: 'stop',
    operationId: 'stopMachine',
    summary: 'Queue StopMachine (sets stop)',
    description: 'Sets the stop switch and queues a StopMachine task (spec 2 §2.3; DESIGN §6).',
  },
  {
    action: 'terminate',
    operationId: 'terminateMachine',
    summary: 'Queue TerminateMachine (sets terminate)',
    description: 'Sets the terminate switch and queues a TerminateMachine task (spec 2 §2.3; DESIGN §6).',
  },
  {
    action: 'recreate',
    operationId: 'recreateMachine',
    summary: 'Queue RecreateMachine (sets terminate until the new instance runs)',
    description: 'Queues a RecreateMachine task: the instance is replaced, and terminate stays set until the new one runs (spec 2 §2.3; DESIGN §6).',
  },
];
const ACTION_RULES = ' 409 while the machine is being terminated. Audited with the task type.';

export const machineRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Machines'];
  const machines = () => app.services.machines;

  app.get(
    '/machines',
    {
      schema: {
        operationId: 'listMachines',
        description:
          'Machines the user may see, optionally of one account or the one `machineId`, by account, launcher first, then name, paged (spec 2 §2.7 Machines viewer, §7 Machines). ' +
          'Customer Production machines are left out without group CustomerProductionAccess. `classId`, `needsAdmin`, `turbo` and `unmanaged` (true/false) narrow the list ' +
          'with the conditions `GET /machines/stats` counts with: filtered, the total is exact and equals the top bar counter. Over the whole unfiltered fleet the total is counted at most ' +
          `${VIEWER_COUNT_AHEAD} rows past the page (\`totalCapped\` true: at least that many).`,
        tags,
        summary: 'Visible machines, optionally of one account or one machine, paged',
        querystring: ZListMachinesQuery,
        response: { 200: ZMachinesPage },
      },
    },
    (req) => machines().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/machines/:id',
    {
      schema: {
        operationId: 'getMachine',
        description:
          'One machine with its account, class, switches, failure state, cloud instance, URLs, recent tasks and operations; its cloud instances (`cloudInstances`: newest first, at most 10, each with its launch `timestamp` and state now); `grafanaUrl`, its dashboard in the provider\'s Grafana (`GRAFANA_URL`), null unless its account\'s machineConfig.showInGrafana; and its own backup files per software (cloudBackupsLauncher, cloudBackupsSiteMaster, cloudBackupsAuditChangeLog: newest first, at most 20 each) (spec 2 §3; DESIGN §13). Lists of machines carry none of these (modules/machines/machine-record.ts).',
        tags,
        summary: 'One machine, with its cloud instances, Grafana link and backup files',
        params: ZIdParams,
        response: { 200: ZMachineDetail },
      },
    },
    (req) => machines().get({ principal: req.principal!, machineId: req.params.id }),
  );

  for (const { action, operationId, summary, description } of ACTION_ROUTES) {
    app.post(
      `/machines/:id/${action}`,
      {
        config: { problems: [409] },
        schema: { operationId, description: description + ACTION_RULES, tags, summary, params: ZIdParams, response: { 200: ZTask } },
      },
      (req) => machines().act({ principal: req.principal!, machineId: req.params.id, action }),
    );
  }

  app.post(
    '/machines/:id/reset-failure-state',
    {
      schema: {
        operationId: 'resetMachineFailureState',
        description: 'Clears needsAdmin and sets failCounter to 0 (spec 2 §2.3). Audited.',
        tags,
        summary: 'Clear needsAdmin and set failCounter to 0',
        params: ZIdParams,
        response: { 200: ZMachine },
      },
    },
    (req) => machines().resetFailureState({ principal: req.principal!, machineId: req.params.id }),
  );

  app.post(
    '/machines/:id/change-instance-type',
    {
      config: { problems: [409, 422] },
      schema: {
        operationId: 'changeMachineInstanceType',
        description:
          'Queues a ChangeInstanceType task to the given instance type (spec 2 §2.3, §7). 400 for an unknown type, 409 while the machine is being terminated, 422 when it has that type already. Audited.',
        tags,
        summary: 'Queue ChangeInstanceType',
        params: ZIdParams,
        body: ZChangeInstanceTypeRequest,
        response: { 200: ZTask },
      },
    },
    (req) => machines().changeInstanceType({ principal: req.principal!, machineId: req.params.id, instanceTypeId: req.body.instanceTypeId }),
  );

  app.get(
    '/machines/:id/tasks',
    {
      schema: {
        operationId: 'listMachineTasks',
        description: 'Tasks of the machine, newest first, paged (spec 2 §2.4 Tasks drawer).',
        tags,
        summary: 'The machine tasks, newest first',
        params: ZIdParams,
        querystring: ZTaskListQuery,
        response: { 200: ZTaskListResponse },
      },
    },
    (req) => machines().tasks({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );

  app.post(
    '/machines/:id/tasks/:taskId/cancel',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'cancelMachineTask',
        description: 'Cancels a task that is still New (DESIGN §6); 409 for any other status. Audited.',
        tags,
        summary: 'Cancel a New task (409 for any other status)',
        params: ZTaskParams,
        response: { 200: ZTask },
      },
    },
    (req) => machines().cancelTask({ principal: req.principal!, machineId: req.params.id, taskId: req.params.taskId }),
  );

  app.get(
    '/accounts/:id/machines',
    {
      schema: {
        operationId: 'listAccountMachines',
        description: 'Machines of one account, paged (spec 2 §2.2 Machines panel, §7).',
        tags,
        summary: 'Machines of the account, paged',
        params: ZIdParams,
        querystring: ZAccountMachinesQuery,
        response: { 200: ZListMachinesResponse },
      },
    },
    (req) => machines().listForAccount({ principal: req.principal!, accountId: req.params.id, query: req.query }),
  );

  app.post(
    '/accounts/:id/machines',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createAccountMachine',
        description:
          "Creates one of the machines the account's instance policy still lacks (launcher, or site master of a site) and queues its CreateMachine task (spec 2 §7; DESIGN §6). 409 when the account has no such machine to create. Audited.",
        tags,
        summary: 'Create one of the account creatable machines and queue CreateMachine',
        params: ZIdParams,
        body: ZCreateMachineRequest,
        response: { 200: ZCreateMachineResponse },
      },
    },
    (req) => machines().create({ principal: req.principal!, accountId: req.params.id, body: req.body }),
  );

  app.patch(
    '/accounts/:id/machines/:machineId',
    {
      schema: {
        operationId: 'updateAccountMachine',
        description:
          'Changes the switches (managed, manual maintenance, turbo, smoke test, oversee termination), the class and the sample data of a machine of the account (spec 2 §2.2, §7). Moving a machine into Customer Production needs group CustomerProductionAccess. Audited.',
        tags,
        summary: 'Switches, class and sample data of a machine',
        params: ZAccountMachineParams,
        body: ZUpdateMachineRequest,
        response: { 200: ZMachine },
      },
    },
    (req) => machines().update({ principal: req.principal!, accountId: req.params.id, machineId: req.params.machineId, patch: req.body }),
  );

  app.get(
    '/accounts/:id/creatable-machines',
    {
      schema: {
        operationId: 'listCreatableMachines',
        description: "Machines the account's instance policy still lacks, which `POST /accounts/{id}/machines` can create (spec 2 §7).",
        tags,
        summary: 'Machines the account instance policy still lacks',
        params: ZIdParams,
        response: { 200: ZCreatableMachinesResponse },
      },
    },
    (req) => machines().creatable({ principal: req.principal!, accountId: req.params.id }),
  );

  app.get(
    '/machines/:id/credential',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'getMachineCredential',
        description:
          "The machine's RDP password and SSH private key, decrypted (spec 2 §7). The read reveals secrets, so it needs `write` and is audited; 404 when the machine has none.",
        tags,
        summary: 'RDP password and SSH private key (write permission; audited); 404 when none',
        params: ZIdParams,
        response: { 200: ZMachineCredential },
      },
    },
    (req) => machines().credential({ principal: req.principal!, machineId: req.params.id }),
  );

  app.get(
    '/lookup/machines',
    {
      schema: {
        operationId: 'lookupMachines',
        description:
          'Id, name and class name of the machines the user may see, for pickers (spec 2 §2.1, §7): at most `limit` (default 50, at most 500) by name then id; `search` keeps the names containing it (case-insensitive), `ids` (comma list, at most 100) those machines.',
        tags,
        summary: 'Id, name and class name of visible machines: search by name, ids, limit',
        querystring: ZMachineLookupQuery,
        response: { 200: ZMachineLookupResponse },
      },
    },
    (req) => machines().lookup({ principal: req.principal!, query: req.query }),
  );
};
