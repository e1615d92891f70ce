/** `GET /user-activities` (spec 2 §7 Audit). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZUserActivitiesQuery, ZUserActivitiesResponse } from '@fleet/contracts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user-activities',
    {
      schema: {
        operationId: 'listUserActivities',
        description:
          'Audit activities, newest first by default, optionally of one account or one action, paged; an array (spec 2 §2.11, §7 Audit). Activities of hidden Customer Production accounts are left out.',
        tags: ['Audit'],
        summary: 'Audit activities, newest first by default; an array',
        querystring: ZUserActivitiesQuery,
        response: { 200: ZUserActivitiesResponse },
      },
    },
    (req) => app.services.audit.list(req.principal!, req.query),
  );
};
