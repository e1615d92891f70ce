/**
 * Request statistics calls (spec 2 §2.10, §7 Operations and statistics and
 * Machines; DESIGN §14): `GET /request-statistics` and
 * `GET /machines/{id}/request-statistics`. Reads: any signed-in user; hidden
 * machines are left out or 404 (the service).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZIdParams,
  ZMachineRequestStatisticsQuery,
  ZMachineRequestStatisticsResponse,
  ZRequestStatisticsPage,
  ZRequestStatisticsQuery,
} from '@fleet/contracts';

const FIGURES =
  'Each item: the last probe (lastUpdate, lastLatency in ms or null when it failed, lastSuccess) and, for the last hour, day and week, the average latency of the successful probes (ms) and the success ratio (0..1), null without probes.';

export const requestStatisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Request statistics'];
  const service = () => app.services.requestStatistics;

  app.get(
    '/request-statistics',
    {
      schema: {
        operationId: 'listRequestStatistics',
        summary: 'Probe statistics of the launcher and site master URLs of visible machines, paged',
        description:
          'Request Statistics viewer (spec 2 §2.10; DESIGN §14; issue 24 point 7): one item per probed URL of a visible machine, by machine id then launcher before site master, ' +
          'or by `sort`: `machine` (name, ascending unless `order=desc`) or `lastUpdate` (the last probe, newest first unless `order=asc`); ' +
          'filtered by `machineId`, `classId` (the machine\'s class), `status` (`success` or `failure` of the last probe), `from` and `to` (the last probe\'s time, inclusive); paged on the server. ' +
          '`totalItems` is exact unless `totalCapped` is true: then at least that many match (counting stops at the end of the block of 100 rows the page starts in, plus a page). ' +
          FIGURES,
        tags,
        querystring: ZRequestStatisticsQuery,
        response: { 200: ZRequestStatisticsPage },
      },
    },
    (req) => service().list({ principal: req.principal!, query: req.query }),
  );

  app.get(
    '/machines/:id/request-statistics',
    {
      schema: {
        operationId: 'listMachineRequestStatistics',
        summary: "The machine's probe statistics (launcher and site master URL)",
        description: `The request statistics of one machine (spec 2 §7 Machines; DESIGN §14): its probed URLs, launcher first. 404 for an unknown or hidden machine. ${FIGURES}`,
        tags,
        params: ZIdParams,
        querystring: ZMachineRequestStatisticsQuery,
        response: { 200: ZMachineRequestStatisticsResponse },
      },
    },
    (req) => service().machine({ principal: req.principal!, machineId: req.params.id, query: req.query }),
  );
};
