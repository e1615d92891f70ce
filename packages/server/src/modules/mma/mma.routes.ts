/**
 * MMA calls (spec 3 §2.7, §7 MMA): `GET /mma/instances` and
 * `PUT /mma/classes/{id}`. (`GET /mma/classes` and `/mma/stats` are the fleet
 * module's, read by the top bar too.)
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdParams, ZMmaClass, ZMmaInstancesResponse, ZUpdateMmaClassRequest } from '@fleet/contracts';

export const mmaRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['MMA'];

  app.get(
    '/mma/instances',
    {
      schema: {
        operationId: 'listMmaInstances',
        description: 'The MMA instance of each class: commit, deployer version and branch, standby, priority group, CAA host (spec 3 §7 MMA; DESIGN §12).',
        tags,
        summary: 'MMA instances, one per class',
        response: { 200: ZMmaInstancesResponse },
      },
    },
    () => app.services.mma.instances(),
  );

  app.put(
    '/mma/classes/:id',
    {
      config: { problems: [404, 422] },
      schema: {
        operationId: 'updateMmaClass',
        description:
          "Edits an MMA class and its instance: name, image (a jump-start SaaS image or null), deployer version and branch, standby, priority group, CAA host, and the class's change windows (issue 25 point 5: days 1–7, ISO, Monday 1; start and end HH:mm, end after start; an IANA time zone; at most 20; left out, kept) (spec 3 §2.7, §7 MMA). 403 for class Customer Production without group CustomerProductionAccess; 422 for an image that is not a jump-start image. Switching standby off lets the class's queued operations start (DESIGN §12). Answers the class as the list has it. Audited.",
        tags,
        summary: 'Edit an MMA class and its instance (audited)',
        params: ZIdParams,
        body: ZUpdateMmaClassRequest,
        response: { 200: ZMmaClass },
      },
    },
    (req) => app.services.mma.updateClass({ principal: req.principal!, id: req.params.id, body: req.body }),
  );
};
