/**
 * The updater's batches, target lists and saved selections (spec 3 §2.8, §7
 * Updater and batch; DESIGN §15): `PUT /machines/batch`, `PUT /accounts/batch`,
 * `PUT /machines/batch/component-configs`, `/deployer-configs`,
 * `GET /updater/machines[/ids]`, `GET /updater/accounts[/ids]`,
 * `GET`/`POST /updater/selections`, `DELETE /updater/selections/{id}`.
 *
 * The Updater is a write-only screen (spec 3 §2): every route needs permission
 * `write` (the mutations by the app's hook, the reads by `requireWrite`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBatchAccountsRequest,
  ZBatchComponentConfigsRequest,
  ZBatchDeployerConfigsRequest,
  ZBatchMachinesRequest,
  ZBatchResult,
  ZIdParams,
  ZOk,
  ZSavedSelection,
  ZSavedSelectionsResponse,
  ZSaveSelectionRequest,
  ZTargetIdsResponse,
  ZUpdaterAccountsQuery,
  ZUpdaterAccountsResponse,
  ZUpdaterMachinesFilter,
  ZUpdaterMachinesQuery,
  ZUpdaterMachinesResponse,
  ZAccountFilter,
} from '@fleet/contracts';

const BATCH_RULES =
  'A dry run (`dryRun`) answers what would change per target, or the rule that refuses it, and changes nothing. Otherwise atomic: ' +
  '404 naming each unknown or hidden id, 422 naming each target a rule refuses (nothing changed), else one audit activity.';

export const updaterRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Updater'];
  const updater = () => app.services.updater;

  app.put(
    '/machines/batch',
    {
      schema: {
        operationId: 'batchUpdateMachines',
        description:
          'Sets managed, manual maintenance and class of many machines (spec 3 §2.8, §7 Updater and batch) with the rules of ' +
          '`PATCH /accounts/{id}/machines/{machineId}`: 403 moving into Customer Production without group CustomerProductionAccess; ' +
          `a machine being terminated is refused. ${BATCH_RULES} Audited BatchUpdateMachines.`,
        tags,
        summary: 'Set managed, manual maintenance and class of many machines (dry run; audited)',
        body: ZBatchMachinesRequest,
        response: { 200: ZBatchResult },
      },
      config: { problems: [404, 422] },
    },
    (req) => updater().batchMachines({ principal: req.principal!, body: req.body }),
  );

  app.put(
    '/accounts/batch',
    {
      schema: {
        operationId: 'batchUpdateAccounts',
        description:
          'Sets managed, class and auto test of many accounts (spec 3 §2.8, §7 Updater and batch) with the rules of Push Account Properties: ' +
          'no move to or from the add-on class, add-on accounts stay unmanaged without auto test, 403 for Customer Production without ' +
          `group CustomerProductionAccess; each changed account's properties version is bumped. ${BATCH_RULES} Audited BatchUpdateAccounts.`,
        tags,
        summary: 'Set managed, class and auto test of many accounts (dry run; audited)',
        body: ZBatchAccountsRequest,
        response: { 200: ZBatchResult },
      },
      config: { problems: [404, 422] },
    },
    (req) => updater().batchAccounts({ principal: req.principal!, body: req.body }),
  );

  app.put(
    '/machines/batch/component-configs',
    {
      schema: {
        operationId: 'batchUpdateComponentConfigs',
        description:
          "Replaces each machine's whole component configuration, keyed by machine id (spec 3 §7 Updater and batch), with the checks of " +
          '`PUT /machines/{id}/component-config`: 400 naming `componentConfigs.<id>.<key>` for an unknown key or a wrong type; a machine whose ' +
          `protected keys would change is refused. ${BATCH_RULES} Audited BatchUpdateComponentConfigs.`,
        tags,
        summary: 'Replace the component configurations of many machines (dry run; audited)',
        body: ZBatchComponentConfigsRequest,
        response: { 200: ZBatchResult },
      },
      config: { problems: [404, 422] },
    },
    (req) => updater().batchConfigs({ principal: req.principal!, kind: 'component', configs: req.body.componentConfigs, dryRun: req.body.dryRun }),
  );

  app.put(
    '/machines/batch/deployer-configs',
    {
      schema: {
        operationId: 'batchUpdateDeployerConfigs',
        description:
          "Replaces each machine's whole deployer configuration, keyed by machine id (spec 3 §7 Updater and batch), with the checks of " +
          '`PUT /machines/{id}/deployer-config`: 400 naming `deployerConfigs.<id>.<key>` for an unknown key or a wrong type; a machine whose ' +
          `protected keys would change is refused. ${BATCH_RULES} Audited BatchUpdateDeployerConfigs.`,
        tags,
        summary: 'Replace the deployer configurations of many machines (dry run; audited)',
        body: ZBatchDeployerConfigsRequest,
        response: { 200: ZBatchResult },
      },
      config: { problems: [404, 422] },
    },
    (req) => updater().batchConfigs({ principal: req.principal!, kind: 'deployer', configs: req.body.deployerConfigs, dryRun: req.body.dryRun }),
  );

  app.get(
    '/updater/machines',
    {
      schema: {
        operationId: 'listUpdaterMachines',
        description:
          'A page of the machines the updater can target, by name then id (spec 3 §2.8, §3 Machine (updater)): of the classes `classIds`, ' +
          'whose name contains `search`, of the accounts `accountIds`. Customer Production is absent without group CustomerProductionAccess. Needs write.',
        tags,
        summary: 'Updater machines by class, name and account (needs write)',
        querystring: ZUpdaterMachinesQuery,
        response: { 200: ZUpdaterMachinesResponse },
      },
      config: { requireWrite: true },
    },
    (req) => updater().machines({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/updater/machines/ids',
    {
      schema: {
        operationId: 'listUpdaterMachineIds',
        description:
          "'Select all that match' of the updater's machines (spec 3 §2.8): the ids of the matches of the filter of `GET /updater/machines`, " +
          'at most 10,000, by name then id, with the number of all matches. Needs write.',
        tags,
        summary: 'Ids of every updater machine matching the filter (at most 10,000; needs write)',
        querystring: ZUpdaterMachinesFilter,
        response: { 200: ZTargetIdsResponse },
      },
      config: { requireWrite: true },
    },
    (req) => updater().machineIds({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/updater/accounts',
    {
      schema: {
        operationId: 'listUpdaterAccounts',
        description:
          'A page of the accounts the updater can target, by name then id, with the filters of the accounts list (`search`, `classIds`, ' +
          '`saasImage`, `machineStatusInclude`, `machineStatusExclude`; spec 3 §2.8, §3 Account (updater)). Customer Production is absent ' +
          'without group CustomerProductionAccess. Needs write.',
        tags,
        summary: 'Updater accounts with the accounts list filters (needs write)',
        querystring: ZUpdaterAccountsQuery,
        response: { 200: ZUpdaterAccountsResponse },
      },
      config: { requireWrite: true },
    },
    (req) => updater().accounts({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/updater/accounts/ids',
    {
      schema: {
        operationId: 'listUpdaterAccountIds',
        description:
          "'Select all that match' of the updater's accounts (spec 3 §2.8): the ids of the matches of the accounts list filters, at most 10,000, " +
          'by name then id, with the number of all matches. Needs write.',
        tags,
        summary: 'Ids of every updater account matching the filter (at most 10,000; needs write)',
        querystring: ZAccountFilter,
        response: { 200: ZTargetIdsResponse },
      },
      config: { requireWrite: true },
    },
    (req) => updater().accountIds({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/updater/selections',
    {
      schema: {
        operationId: 'listUpdaterSelections',
        description: 'Saved target selections of the updater, newest first: an accounts list query or a list of machine or account ids (spec 3 §2.8). Needs write.',
        tags,
        summary: 'Saved updater selections, newest first (needs write)',
        response: { 200: ZSavedSelectionsResponse },
      },
      config: { requireWrite: true },
    },
    () => updater().selections(),
  );

  app.post(
    '/updater/selections',
    {
      schema: {
        operationId: 'saveUpdaterSelection',
        description:
          'Saves a target selection (spec 3 §2.8): a name, its kind and either an accounts list query (400 naming `query` when it is not one) ' +
          'or ids (404 naming each unknown or hidden id). Audited SaveSelection.',
        tags,
        summary: 'Save an updater selection: a query or ids (audited)',
        body: ZSaveSelectionRequest,
        response: { 200: ZSavedSelection },
      },
      config: { problems: [404] },
    },
    (req) => updater().saveSelection({ principal: req.principal!, body: req.body }),
  );

  app.delete(
    '/updater/selections/:id',
    {
      schema: {
        operationId: 'deleteUpdaterSelection',
        description: 'Deletes a saved selection; only its owner or a user with permission admin may (403 otherwise) (spec 3 §2.8). Audited DeleteSelection.',
        tags,
        summary: 'Delete an updater selection (its owner or an admin; audited)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => updater().deleteSelection({ principal: req.principal!, id: req.params.id }),
  );
};
