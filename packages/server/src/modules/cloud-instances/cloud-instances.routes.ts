/**
 * Cloud instance calls (spec 2 §2.9, §7): `GET /cloud-instance` (every visible
 * machine's instances, or one machine's by `machineId`) and
 * `GET /machines/{id}/cloud-instances`. Reads: any signed-in user.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VIEWER_COUNT_AHEAD, ZCloudInstancesPage, ZCloudInstancesQuery, ZIdParams, ZMachineCloudInstancesQuery } from '@fleet/contracts';

const RULES =
  ` Newest first. Customer Production machines are left out without group CustomerProductionAccess. The total is counted at most ${VIEWER_COUNT_AHEAD} rows past the page (\`totalCapped\` true: at least that many).`;

export const cloudInstanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Cloud instances'];
  const instances = () => app.services.cloudInstances;

  app.get(
    '/cloud-instance',
    {
      schema: {
        operationId: 'listCloudInstances',
        summary: 'Cloud instances of every visible machine, or of one, paged',
        description:
          'The Cloud Instances viewer (spec 2 §2.9, §7 Operations and statistics): machine, class, host name, addresses, cloud id, storage size, launch time, state now, active and DNS. ' +
          '`machineId` keeps one machine (an unknown or hidden id answers an empty page); `classId` (the machine\'s class), `status` (the state now) and `active` filter; `order` asc lists the oldest first (issue 24 point 7).' +
          RULES,
        tags,
        querystring: ZCloudInstancesQuery,
        response: { 200: ZCloudInstancesPage },
      },
    },
    (req) => instances().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/machines/:id/cloud-instances',
    {
      schema: {
        operationId: 'listMachineCloudInstances',
        summary: "The machine's cloud instances, paged",
        description: "The machine's cloud instances, the active one and those it had before (spec 2 §3 cloudInstances, §7 Machines)." + RULES,
        tags,
        params: ZIdParams,
        querystring: ZMachineCloudInstancesQuery,
        response: { 200: ZCloudInstancesPage },
      },
    },
    (req) => instances().ofMachine({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );
};
