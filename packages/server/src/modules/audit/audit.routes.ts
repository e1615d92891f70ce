/** `GET /user-activities`, `/user-activities/users` and `/user-activities/{id}` (spec 2 §7 Audit; issue 24 point 6). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZActivityUsersResponse, ZIdParams, ZUserActivitiesQuery, ZUserActivitiesResponse, ZUserActivityDetail } from '@fleet/contracts';

const tags = ['Audit'];

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user-activities',
    {
      config: { problems: [404] },
      schema: {
        operationId: 'listUserActivities',
        description:
          'Audit activities, newest first by default, optionally of one account, one action, one user and a time range (from and to inclusive, ISO 8601 with a zone), paged; an array (spec 2 §2.11, §7 Audit). ' +
          'Login, LoginFailed and Logout are left out unless signIns=true or action names one. ' +
          'fromId starts the list at that activity (startIndex counts from there); beforeId answers the limit activities just before it, in the same order; 404 for an unknown or hidden anchor. ' +
          'Activities of hidden Customer Production accounts are left out.',
        tags,
        summary: 'Audit activities, newest first by default; an array',
        querystring: ZUserActivitiesQuery,
        response: { 200: ZUserActivitiesResponse },
      },
    },
    (req) => app.services.audit.list(req.principal!, req.query),
  );

  app.get(
    '/user-activities/users',
    {
      schema: {
        operationId: 'listUserActivityUsers',
        description: 'The users of the audit activities the caller may see, by name (at most 500): the options of the user filter of the activity log.',
        tags,
        summary: 'Users of the audit activities',
        response: { 200: ZActivityUsersResponse },
      },
    },
    (req) => app.services.audit.users(req.principal!),
  );

  app.get(
    '/user-activities/:id',
    {
      schema: {
        operationId: 'getUserActivity',
        description:
          'One audit activity, with `named`: the machines and accounts it names by id that exist and the caller may see, with their names now (issue 24 point 6). 404 for an unknown activity or one of a hidden Customer Production account.',
        tags,
        summary: 'One audit activity with the machines and accounts it names',
        params: ZIdParams,
        response: { 200: ZUserActivityDetail },
      },
    },
    (req) => app.services.audit.get(req.principal!, req.params.id),
  );
};
