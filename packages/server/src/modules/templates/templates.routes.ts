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
        description:
          'Templates of one kind (general, license-settings, instance-settings, backup-settings) that the user may see: public ones and their own, then the template accounts (spec 1 §2 Manage Templates, §7).',
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
        description:
          "Saves a template of the kind: name, isPublic and the flattened settings, checked against the kind's rules (spec 1 §7 Templates). Audited.",
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
        description: 'Replaces a template; only its owner may (403 otherwise) (spec 1 §7 Templates). Audited.',
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
        description: 'Deletes a template; only its owner may (403 otherwise) (spec 1 §7 Templates). Audited.',
        tags,
        summary: 'Delete a template (its owner only; audited)',
        params: ZTemplateIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => app.services.templates.remove({ principal: req.principal!, type: req.params.type, id: req.params.id }),
  );
};
