/**
 * `POST /software-update/validate` (spec 1 §5, §7): issues to confirm before an
 * instance settings push. `POST /software-update/update-machines` and
 * `/update-accounts` (spec 3 §2.8, §7; DESIGN §15): versions of many targets at
 * once, with a dry run (a rollout is handed to the rollout engine).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBatchResult, ZUpdateAccountsRequest, ZUpdateMachinesRequest, ZValidateSoftwareUpdateRequest, ZValidateSoftwareUpdateResponse } from '@fleet/contracts';

export const softwareUpdateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/software-update/validate',
    {
      config: { problems: [404, 422] },
      schema: {
        operationId: 'validateSoftwareUpdate',
        description:
          'Lists the issues an operator must confirm before pushing these instance settings to the account (spec 1 §5, §7), each with a description; changes nothing. 404 for an unknown account, 422 for add-on accounts.',
        tags: ['Software update'],
        summary: 'Issues (each with a description) to confirm before pushing instance settings; changes nothing',
        body: ZValidateSoftwareUpdateRequest,
        response: { 200: ZValidateSoftwareUpdateResponse },
      },
    },
    (req) => {
      const { accountId, ...config } = req.body;
      return app.services.softwareUpdate.validate({ principal: req.principal!, accountId, config });
    },
  );

  app.post(
    '/software-update/update-machines',
    {
      config: { problems: [404, 422] },
      schema: {
        operationId: 'updateMachinesSoftware',
        description:
          "Sets the machines' desired versions, overriding their accounts' (the updater's machine mode, spec 3 §2.8, §7; DESIGN §12): per software a version mode (Skip, the default, leaves it) and version; library modes must be Skip (400). " +
          'With dryRun, answers per machine each change (old and new mode and version, the commit it resolves to now, what the machine runs) or why it is refused, and writes nothing. ' +
          'Otherwise atomic: 404 naming each unknown or hidden machine, 422 naming each refused one (being terminated, a version that does not resolve), else every machine changes, audited as one UpdateMachinesSoftware activity; the deploy controller deploys them. With `rollout`, the update runs in waves (422 while rollouts are not available).',
        tags: ['Software update'],
        summary: 'Update the desired versions of many machines (machine mode), with a dry run',
        body: ZUpdateMachinesRequest,
        response: { 200: ZBatchResult },
      },
    },
    (req) => app.services.softwareUpdate.updateMachines({ principal: req.principal!, body: req.body }),
  );

  app.post(
    '/software-update/update-accounts',
    {
      config: { problems: [404, 422] },
      schema: {
        operationId: 'updateAccountsSoftware',
        description:
          "Sets the accounts' instance settings versions and library files (the updater's account mode, spec 3 §2.8, §7): per software a version mode (Skip, the default, leaves it) and version, validated as an instance settings push; their machines' overrides of those softwares are cleared and their desired versions follow. " +
          'With dryRun, answers per account each change (for versions the commit it resolves to now) or why it is refused, and writes nothing. ' +
          'Otherwise atomic: 404 naming each unknown or hidden account, 422 naming each refused one (add-on accounts, the push rules), else every account changes, audited as one UpdateAccountsSoftware activity. With `rollout`, the update runs in waves (422 while rollouts are not available).',
        tags: ['Software update'],
        summary: 'Update the versions and library files of many accounts (account mode), with a dry run',
        body: ZUpdateAccountsRequest,
        response: { 200: ZBatchResult },
      },
    },
    (req) => app.services.softwareUpdate.updateAccounts({ principal: req.principal!, body: req.body }),
  );
};
