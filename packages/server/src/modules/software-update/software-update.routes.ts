/** `POST /software-update/validate` (spec 1 §5, §7): issues to confirm before an instance settings push. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZValidateSoftwareUpdateRequest, ZValidateSoftwareUpdateResponse } from '@fleet/contracts';

export const softwareUpdateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/software-update/validate',
    {
      schema: {
        operationId: 'validateSoftwareUpdate',
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
