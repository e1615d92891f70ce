/**
 * Machine configuration calls (spec 2 §7 Machines, spec 3 §7 Updater and batch):
 * `PUT /machines/{id}/component-config`, `PUT /machines/{id}/deployer-config`,
 * `GET /machines/{id}/default-component-config`, `GET /machines/{id}/default-deployer-config`,
 * and the batch defaults `GET /machines/default-component-configs?ids=1,2` and
 * `GET /machines/default-deployer-configs?ids=1,2`, and the batch current
 * configurations `GET /machines/component-configs?ids=1,2` and
 * `GET /machines/deployer-configs?ids=1,2` (readable without `write`, like
 * `GET /machines/{id}`). The catalogues of definitions
 * are the `config-catalogues` module's. Mutations need `write` (app.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZDefaultComponentConfig,
  ZDefaultComponentConfigsResponse,
  ZDefaultDeployerConfig,
  ZDefaultDeployerConfigsResponse,
  ZIdParams,
  ZMachine,
  ZMachineComponentConfigsResponse,
  ZMachineDeployerConfigsResponse,
  ZMachineIdsQuery,
  ZPutComponentConfigRequest,
  ZPutDeployerConfigRequest,
} from '@fleet/contracts';

export const machineConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Machine configs'];
  const configs = () => app.services.machineConfigs;

  app.put(
    '/machines/:id/component-config',
    {
      config: { problems: [422] },
      schema: {
        operationId: 'putMachineComponentConfig',
        description:
          "Replaces the machine's component configuration, checked against the config definitions (spec 2 §7 Machines). Protected configs are read-only: 422. Audited with field-level changes.",
        tags,
        summary: 'Replace the machine component configuration',
        params: ZIdParams,
        body: ZPutComponentConfigRequest,
        response: { 200: ZMachine },
      },
    },
    (req) => configs().save({ principal: req.principal!, machineId: req.params.id, kind: 'component', config: req.body.componentConfig }),
  );

  app.put(
    '/machines/:id/deployer-config',
    {
      config: { problems: [422] },
      schema: {
        operationId: 'putMachineDeployerConfig',
        description:
          "Replaces the machine's deployer configuration, checked against the config definitions (spec 2 §7 Machines). Protected configs are read-only: 422. Audited with field-level changes.",
        tags,
        summary: 'Replace the machine deployer configuration',
        params: ZIdParams,
        body: ZPutDeployerConfigRequest,
        response: { 200: ZMachine },
      },
    },
    (req) => configs().save({ principal: req.principal!, machineId: req.params.id, kind: 'deployer', config: req.body.deployerConfig }),
  );

  app.get(
    '/machines/:id/default-component-config',
    {
      schema: {
        operationId: 'getDefaultComponentConfig',
        description:
          "The default component configuration of the machine: catalogue defaults with the machine's variables substituted (DESIGN §6).",
        tags,
        summary: 'Default component configuration of the machine',
        params: ZIdParams,
        response: { 200: ZDefaultComponentConfig },
      },
    },
    async (req) => ({
      machineId: req.params.id,
      componentConfig: await configs().defaultsOf({ principal: req.principal!, machineId: req.params.id, kind: 'component' }),
    }),
  );

  app.get(
    '/machines/:id/default-deployer-config',
    {
      schema: {
        operationId: 'getDefaultDeployerConfig',
        description:
          'The default deployer configuration of the machine: catalogue defaults by the rules of its component configuration (DESIGN §6).',
        tags,
        summary: 'Default deployer configuration of the machine',
        params: ZIdParams,
        response: { 200: ZDefaultDeployerConfig },
      },
    },
    async (req) => ({
      machineId: req.params.id,
      deployerConfig: await configs().defaultsOf({ principal: req.principal!, machineId: req.params.id, kind: 'deployer' }),
    }),
  );

  app.get(
    '/machines/default-component-configs',
    {
      schema: {
        operationId: 'listDefaultComponentConfigs',
        description:
          'Default component configurations of several machines (`ids`, a comma list); 400 naming unknown machines (spec 3 §7 Updater and batch).',
        tags,
        summary: 'Default component configurations of the machines (ids: a comma list)',
        querystring: ZMachineIdsQuery,
        response: { 200: ZDefaultComponentConfigsResponse },
      },
    },
    async (req) =>
      (await configs().defaults({ principal: req.principal!, machineIds: req.query.ids, kind: 'component' })).map((i) => ({ machineId: i.machineId, componentConfig: i.config })),
  );

  app.get(
    '/machines/default-deployer-configs',
    {
      schema: {
        operationId: 'listDefaultDeployerConfigs',
        description:
          'Default deployer configurations of several machines (`ids`, a comma list); 400 naming unknown machines (spec 3 §7 Updater and batch).',
        tags,
        summary: 'Default deployer configurations of the machines (ids: a comma list)',
        querystring: ZMachineIdsQuery,
        response: { 200: ZDefaultDeployerConfigsResponse },
      },
    },
    async (req) =>
      (await configs().defaults({ principal: req.principal!, machineIds: req.query.ids, kind: 'deployer' })).map((i) => ({ machineId: i.machineId, deployerConfig: i.config })),
  );

  app.get(
    '/machines/component-configs',
    {
      config: { problems: [404] },
      schema: {
        operationId: 'listMachineComponentConfigs',
        description:
          "Current component configurations of several machines (`ids`, a comma list of 1 to 200), in the order asked, as `GET /machines/{id}` shows each machine's; " +
          '404 naming each unknown or hidden id (`ids[i]`) (spec 3 §2.8, §7 Updater and batch).',
        tags,
        summary: 'Current component configurations of the machines (ids: a comma list)',
        querystring: ZMachineIdsQuery,
        response: { 200: ZMachineComponentConfigsResponse },
      },
    },
    async (req) =>
      (await configs().current({ principal: req.principal!, machineIds: req.query.ids, kind: 'component' })).map((i) => ({ machineId: i.machineId, componentConfig: i.config })),
  );

  app.get(
    '/machines/deployer-configs',
    {
      config: { problems: [404] },
      schema: {
        operationId: 'listMachineDeployerConfigs',
        description:
          "Current deployer configurations of several machines (`ids`, a comma list of 1 to 200), in the order asked, as `GET /machines/{id}` shows each machine's; " +
          '404 naming each unknown or hidden id (`ids[i]`) (spec 3 §2.8, §7 Updater and batch).',
        tags,
        summary: 'Current deployer configurations of the machines (ids: a comma list)',
        querystring: ZMachineIdsQuery,
        response: { 200: ZMachineDeployerConfigsResponse },
      },
    },
    async (req) =>
      (await configs().current({ principal: req.principal!, machineIds: req.query.ids, kind: 'deployer' })).map((i) => ({ machineId: i.machineId, deployerConfig: i.config })),
  );
};
