/** `GET /machines/stats`, `GET /mma/stats`, `GET /mma/classes`, `GET /cloud/images` (spec 3 §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZMachineStats, ZMmaClassesResponse, ZMmaStats, ZSaasImagesResponse } from '@fleet/contracts';

export const fleetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/machines/stats',
    { schema: { operationId: 'getMachineStats', tags: ['Fleet'], summary: 'Fleet counters', response: { 200: ZMachineStats } } },
    (req) => app.services.fleet.machineStats(req.principal!),
  );
  app.get(
    '/mma/stats',
    { schema: { operationId: 'getMmaStats', tags: ['MMA'], summary: 'MMA instances on standby', response: { 200: ZMmaStats } } },
    () => app.services.fleet.mmaStats(),
  );
  app.get(
    '/mma/classes',
    { schema: { operationId: 'listMmaClasses', tags: ['MMA'], summary: 'MMA classes with their instance', response: { 200: ZMmaClassesResponse } } },
    () => app.services.fleet.mmaClasses(),
  );
  app.get(
    '/cloud/images',
    { schema: { operationId: 'listSaasImages', tags: ['Cloud'], summary: 'SaaS images', response: { 200: ZSaasImagesResponse } } },
    () => app.services.fleet.saasImages(),
  );
};
