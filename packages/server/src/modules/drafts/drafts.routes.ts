/**
 * Account creation through a draft (spec 1 §7 Accounts): `POST /accounts`,
 * `GET /draft-accounts/{id}`, `POST /draft-accounts`, `POST /accounts/create-from-draft`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreateAccountRequest,
  ZCreateFromDraftRequest,
  ZCreateFromDraftResponse,
  ZDraftAccount,
  ZDraftAccountIdResponse,
  ZIdParams,
  ZUpdateDraftAccountRequest,
} from '@fleet/contracts';

export const draftRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Account creation'];

  app.post(
    '/accounts',
    {
      schema: {
        operationId: 'createAccountDraft',
        tags,
        summary: 'Validate the flattened creation payload and save it as a draft; answers the draft id',
        body: ZCreateAccountRequest,
        response: { 200: ZDraftAccountIdResponse },
      },
    },
    (req) => app.services.drafts.create({ principal: req.principal!, body: req.body }),
  );

  app.get(
    '/draft-accounts/:id',
    {
      schema: {
        operationId: 'getDraftAccount',
        tags,
        summary: 'A draft with its planned sites and machines (default component configs)',
        params: ZIdParams,
        response: { 200: ZDraftAccount },
      },
    },
    (req) => app.services.drafts.get({ principal: req.principal!, id: req.params.id }),
  );

  app.post(
    '/draft-accounts',
    {
      schema: {
        operationId: 'updateDraftAccount',
        tags,
        summary: 'Replace the payload of a draft (id in the body) and plan it again',
        body: ZUpdateDraftAccountRequest,
        response: { 200: ZDraftAccountIdResponse },
      },
    },
    (req) => {
      const { id, ...body } = req.body;
      return app.services.drafts.update({ principal: req.principal!, id, body });
    },
  );

  app.post(
    '/accounts/create-from-draft',
    {
      schema: {
        operationId: 'createAccountFromDraft',
        tags,
        summary: 'Create the account, its sites and machines and queue CreateMachine tasks (audited CreateAccount)',
        body: ZCreateFromDraftRequest,
        response: { 200: ZCreateFromDraftResponse },
      },
    },
    (req) =>
      app.services.drafts.createFromDraft({
        principal: req.principal!,
        draftAccountId: req.body.draftAccountId,
        machineComponentConfigs: req.body.machineComponentConfigs,
      }),
  );
};
