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
      config: { problems: [409] },
      schema: {
        operationId: 'createAccountDraft',
        description:
          'Validates the flattened creation payload (class, parent, license, instance settings, sites) and saves it as a draft owned by the user, with its planned sites and machines (spec 1 §2 Create account, §7). 409 when the URL name or a domain name is already used.',
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
        description:
          'A draft of the user with its payload and its planned sites and machines, each machine with its default component configuration (spec 1 §7).',
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
      config: { problems: [404, 409] },
      schema: {
        operationId: 'updateDraftAccount',
        description:
          'Replaces the payload of a draft (its id in the body) and plans it again (spec 1 §7). 404 for an unknown draft of the user; 409 when the draft was already turned into an account, or the URL name or a domain name is used.',
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
      config: { problems: [404, 409, 422] },
      schema: {
        operationId: 'createAccountFromDraft',
        description:
          'Creates the account, its settings, sites and machines from a draft, with the component configurations adjusted in the preview, and queues a CreateMachine task for each machine (spec 1 §7; DESIGN §6). Audited CreateAccount. 404 for an unknown draft, 409 when it was used already or a name is taken, 422 when the stored draft is no longer valid.',
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
