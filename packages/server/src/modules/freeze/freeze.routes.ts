/** `GET /fleet/freeze` and `PUT /fleet/freeze` (issue 25 point 5; `freeze.service.ts`). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZFleetFreeze, ZFleetFreezeRequest } from '@fleet/contracts';

export const freezeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Fleet'];
  app.get(
    '/fleet/freeze',
    {
      schema: {
        operationId: 'getFleetFreeze',
        description: 'Whether the fleet is frozen (no new rollout wave and no new UpdateSoftware starts anywhere), why, by whom and since when (issue 25).',
        tags,
        summary: 'The fleet freeze',
        response: { 200: ZFleetFreeze },
      },
    },
    () => app.services.freeze.get(),
  );
  app.put(
    '/fleet/freeze',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'setFleetFreeze',
        description:
          'Freezes the fleet with a reason, or releases it (issue 25): while frozen, no new rollout wave and no new UpdateSoftware starts anywhere; what runs goes on. Admins only (permission admin, or write with group CustomerProductionAccess): 403 for others. 409 to release a fleet that is not frozen. Audited FreezeFleet or ReleaseFleetFreeze.',
        tags,
        summary: 'Freeze or release the fleet (admins, audited)',
        body: ZFleetFreezeRequest,
        response: { 200: ZFleetFreeze },
      },
    },
    (req) => app.services.freeze.set({ principal: req.principal!, request: req.body }),
  );
};
