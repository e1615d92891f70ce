/**
 * The config catalogues (spec 3 §2.5, §7 Component configs and Deployer configs;
 * spec 2 §7 Configs): `GET|POST /component-configs`, `GET|PUT|DELETE
 * /component-configs/{id}`, `GET|POST /deployer-configs`, `GET
 * /deployer-configs/{id}` (the id or the key `rootKey.subKey`; spec 3 §7 calls it
 * `{key}`), `PUT|DELETE /deployer-configs/{id}`. Mutations need `write` (app.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZComponentConfigDefinition,
  ZConfigIdOrKeyParams,
  ZCreateComponentConfigRequest,
  ZCreateDeployerConfigRequest,
  ZDeployerConfigDefinition,
  ZIdParams,
  ZListComponentConfigDefinitionsResponse,
  ZListConfigDefinitionsQuery,
  ZListDeployerConfigDefinitionsResponse,
  ZOk,
  ZUpdateComponentConfigRequest,
  ZUpdateDeployerConfigRequest,
} from '@fleet/contracts';

const RULES =
  'Each default must be of the data type (400 naming it; variables such as {site_port} count as their values); versions must exist and a deprecation version must come after the version (400 naming the field).';

export const configCatalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Config definitions'];
  const catalogues = () => app.services.configCatalogues;

  app.get(
    '/component-configs',
    {
      schema: {
        operationId: 'listComponentConfigs',
        description:
          'Component config definitions, by rootKey.subKey: `search` matches a substring, `rootKey` exactly; paged (spec 3 §2.5, §7 Component configs).',
        tags,
        summary: 'Component config definitions by rootKey.subKey (search: a substring of it; rootKey: exact)',
        querystring: ZListConfigDefinitionsQuery,
        response: { 200: ZListComponentConfigDefinitionsResponse },
      },
    },
    (req) => catalogues().list({ kind: 'component', filter: req.query }),
  );
  app.post(
    '/component-configs',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createComponentConfig',
        description: `Creates a component config definition: rootKey, subKey, dataType and optionally the fields of an edit (spec 3 §2.5). 409 when the key exists. ${RULES} Audited.`,
        tags,
        summary: 'Create a component config definition (409 when the key exists)',
        body: ZCreateComponentConfigRequest,
        response: { 200: ZComponentConfigDefinition },
      },
    },
    (req) => catalogues().create({ principal: req.principal!, kind: 'component', body: req.body }),
  );
  app.get(
    '/component-configs/:id',
    {
      schema: {
        operationId: 'getComponentConfig',
        description: 'One component config definition (spec 3 §7 Component configs).',
        tags,
        summary: 'One component config definition',
        params: ZIdParams,
        response: { 200: ZComponentConfigDefinition },
      },
    },
    (req) => catalogues().get({ kind: 'component', id: req.params.id }),
  );
  app.put(
    '/component-configs/:id',
    {
      schema: {
        operationId: 'updateComponentConfig',
        description: `Updates a component config definition: only protected, siteSpecific, the SaaS, on-prem and Linux defaults, versionId and deprecatedAtVersionId; key and data type are immutable (spec 3 §5). ${RULES} Machine defaults use the change at once. Audited with field-level changes.`,
        tags,
        summary: 'Update a component config definition',
        params: ZIdParams,
        body: ZUpdateComponentConfigRequest,
        response: { 200: ZComponentConfigDefinition },
      },
    },
    (req) => catalogues().update({ principal: req.principal!, kind: 'component', id: req.params.id, body: req.body }),
  );
  app.delete(
    '/component-configs/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'deleteComponentConfig',
        description:
          "Deletes a component config definition (spec 3 §2.5); 409 naming the machines whose component configuration still holds the key. Audited.",
        tags,
        summary: 'Delete a component config definition (409 while machines use its key)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => catalogues().remove({ principal: req.principal!, kind: 'component', id: req.params.id }),
  );

  app.get(
    '/deployer-configs',
    {
      schema: {
        operationId: 'listDeployerConfigs',
        description:
          'Deployer config definitions, by rootKey.subKey: `search` matches a substring, `rootKey` exactly; paged (spec 3 §2.5, §7 Deployer configs).',
        tags,
        summary: 'Deployer config definitions by rootKey.subKey (search: a substring of it; rootKey: exact)',
        querystring: ZListConfigDefinitionsQuery,
        response: { 200: ZListDeployerConfigDefinitionsResponse },
      },
    },
    (req) => catalogues().list({ kind: 'deployer', filter: req.query }),
  );
  app.post(
    '/deployer-configs',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createDeployerConfig',
        description: `Creates a deployer config definition: rootKey, subKey, dataType and optionally the fields of an edit (spec 2 §7 Configs, spec 3 §2.5, §7). 409 when the key exists. ${RULES} Audited.`,
        tags,
        summary: 'Create a deployer config definition (409 when the key exists)',
        body: ZCreateDeployerConfigRequest,
        response: { 200: ZDeployerConfigDefinition },
      },
    },
    (req) => catalogues().create({ principal: req.principal!, kind: 'deployer', body: req.body }),
  );
  app.get(
    '/deployer-configs/:id',
    {
      schema: {
        operationId: 'getDeployerConfig',
        description:
          'One deployer config definition by its id or by its key written rootKey.subKey (spec 3 §7 Deployer configs: `/deployer-configs/{key}`).',
        tags,
        summary: 'One deployer config definition by id or key (rootKey.subKey)',
        params: ZConfigIdOrKeyParams,
        response: { 200: ZDeployerConfigDefinition },
      },
    },
    (req) => {
      const { id } = req.params;
      return catalogues().get(typeof id === 'number' ? { kind: 'deployer', id } : { kind: 'deployer', key: id });
    },
  );
  app.put(
    '/deployer-configs/:id',
    {
      schema: {
        operationId: 'updateDeployerConfig',
        description: `Updates a deployer config definition: only protected, the default value, versionId and deprecatedAtVersionId; key and data type are immutable (spec 3 §5, §7). ${RULES} Machine defaults use the change at once. Audited with field-level changes.`,
        tags,
        summary: 'Update a deployer config definition',
        params: ZIdParams,
        body: ZUpdateDeployerConfigRequest,
        response: { 200: ZDeployerConfigDefinition },
      },
    },
    (req) => catalogues().update({ principal: req.principal!, kind: 'deployer', id: req.params.id, body: req.body }),
  );
  app.delete(
    '/deployer-configs/:id',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'deleteDeployerConfig',
        description:
          "Deletes a deployer config definition (spec 3 §2.5, §7: delete by id); 409 naming the machines whose deployer configuration still holds the key. Audited.",
        tags,
        summary: 'Delete a deployer config definition (409 while machines use its key)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => catalogues().remove({ principal: req.principal!, kind: 'deployer', id: req.params.id }),
  );
};
