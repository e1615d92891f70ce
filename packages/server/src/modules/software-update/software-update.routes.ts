/** `POST /software-update/validate` (spec 1 §5, §7): issues to confirm before an instance settings push. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZValidateSoftwareUpdateRequest, ZValidateSoftwareUpdateResponse } from '@fleet/contracts';

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
};
