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
  ZMachineLookupResponse,
  ZTask,
  ZTaskListQuery,
  ZTaskListResponse,
  ZTaskParams,
  ZUpdateMachineRequest,
} from '@fleet/contracts';
import type { MachineAction } from './machines.service.js';

const ACTION_ROUTES: { action: MachineAction; operationId: string; summary: string }[] = [
  { action: 'start', operationId: 'startMachine', summary: 'Queue StartMachine (clears stop and idle)' },
  { action: 'stop', operationId: 'stopMachine', summary: 'Queue StopMachine (sets stop)' },
  { action: 'terminate', operationId: 'terminateMachine', summary: 'Queue TerminateMachine (sets terminate)' },
  { action: 'recreate', operationId: 'recreateMachine', summary: 'Queue RecreateMachine (sets terminate until the new instance runs)' },
];

export const machineRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Machines'];
  const machines = () => app.services.machines;

  app.get(
    '/machines',
    {
      schema: {
        operationId: 'listMachines',
        tags,
        summary: 'Visible machines, optionally of one account, paged',
        querystring: ZListMachinesQuery,
        response: { 200: ZListMachinesResponse },
      },
    },
    (req) => machines().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/machines/:id',
    { schema: { operationId: 'getMachine', tags, summary: 'One machine', params: ZIdParams, response: { 200: ZMachine } } },
    (req) => machines().get({ principal: req.principal!, machineId: req.params.id }),
  );

  for (const { action, operationId, summary } of ACTION_ROUTES) {
    app.post(
      `/machines/:id/${action}`,
      { schema: { operationId, tags, summary, params: ZIdParams, response: { 200: ZTask } } },
      (req) => machines().act({ principal: req.principal!, machineId: req.params.id, action }),
    );
  }

  app.post(
    '/machines/:id/reset-failure-state',
    {
      schema: {
        operationId: 'resetMachineFailureState',
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
      schema: {
        operationId: 'changeMachineInstanceType',
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
      schema: {
        operationId: 'cancelMachineTask',
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
      schema: {
        operationId: 'createAccountMachine',
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
    { schema: { operationId: 'lookupMachines', tags, summary: 'Id, name and class name of every visible machine', response: { 200: ZMachineLookupResponse } } },
    (req) => machines().lookup({ principal: req.principal! }),
  );
};
