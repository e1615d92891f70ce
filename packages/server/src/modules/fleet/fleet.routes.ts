/** `GET /machines/stats`, `GET /mma/stats`, `GET /mma/classes` (spec 3 §7); `GET /cloud/images` is the images module's. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZMachineStats, ZMmaClassesResponse, ZMmaStats } from '@fleet/contracts';

export const fleetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/machines/stats',
    {
      schema: {
        operationId: 'getMachineStats',
        description: 'Fleet counters of the top bar (spec 3 §2.9): machines needing an admin, in turbo and unmanaged, machines per class, running and total cost. Scope: live machines of live accounts of every class, for every user (spec 1 §2, spec 3 §2.9), as `GET /accounts/info` counts them for the listed accounts; `restricted` gives the classes the user cannot open (Customer Production without group CustomerProductionAccess) and how many of each count are theirs: `GET /machines` with the same filter lists the count less those. Costs are of the machines the user can open.',
        tags: ['Fleet'],
        summary: 'Fleet counters',
        response: { 200: ZMachineStats },
      },
    },
    (req) => app.services.fleet.machineStats(req.principal!),
  );
  app.get(
    '/mma/stats',
    {
      schema: {
        operationId: 'getMmaStats',
        description: 'How many MMA instances are on standby, and their classes (spec 3 §2.9, §7 MMA).',
        tags: ['MMA'],
        summary: 'MMA instances on standby',
        response: { 200: ZMmaStats },
      },
    },
    () => app.services.fleet.mmaStats(),
  );
  app.get(
    '/mma/classes',
    {
      schema: {
        operationId: 'listMmaClasses',
        description: 'MMA classes with their instance (spec 3 §2.7, §7 MMA).',
        tags: ['MMA'],
        summary: 'MMA classes with their instance',
        response: { 200: ZMmaClassesResponse },
      },
    },
    () => app.services.fleet.mmaClasses(),
  );
};
