/**
 * Templates (spec 1 §7 Templates): `GET`/`POST /template/{type}`,
 * `PUT`/`DELETE /template/{type}/{id}` for general, license-settings,
 * instance-settings and backup-settings.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZOk, ZSaveTemplateRequest, ZTemplate, ZTemplateIdParams, ZTemplateParams, ZTemplatesResponse } from '@fleet/contracts';

export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Templates'];

  app.get(
    '/template/:type',
    {
      schema: {
        operationId: 'listTemplates',
        tags,
        summary: 'Templates of a kind visible to the user, then the template accounts',
        params: ZTemplateParams,
        response: { 200: ZTemplatesResponse },
      },
    },
    (req) => app.services.templates.list({ principal: req.principal!, type: req.params.type }),
  );

  app.post(
    '/template/:type',
    {
      schema: {
        operationId: 'createTemplate',
        tags,
        summary: 'Save a template: name, isPublic and the flattened settings of the kind (audited)',
        params: ZTemplateParams,
        body: ZSaveTemplateRequest,
        response: { 200: ZTemplate },
      },
    },
    (req) => app.services.templates.create({ principal: req.principal!, type: req.params.type, body: req.body }),
  );

  app.put(
    '/template/:type/:id',
    {
      schema: {
        operationId: 'updateTemplate',
        tags,
        summary: 'Replace a template (its owner only; audited)',
        params: ZTemplateIdParams,
        body: ZSaveTemplateRequest,
        response: { 200: ZTemplate },
      },
    },
    (req) => app.services.templates.update({ principal: req.principal!, type: req.params.type, id: req.params.id, body: req.body }),
  );

  app.delete(
    '/template/:type/:id',
    {
      schema: {
        operationId: 'deleteTemplate',
        tags,
        summary: 'Delete a template (its owner only; audited)',
        params: ZTemplateIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => app.services.templates.remove({ principal: req.principal!, type: req.params.type, id: req.params.id }),
  );
};
