/**
 * `GET /health`: the process answers, and whether the database does (issue 23
 * "The process survives its database"): 200 `database: ok`, or 503
 * `database: down` with `Retry-After` while PostgreSQL restarts, stops or
 * cannot be reached within {@link HEALTH_DATABASE_TIMEOUT_MS}.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealth, ZHealthUnavailable } from '@fleet/contracts';
import { DATABASE_RETRY_AFTER_S, databaseAnswers } from '../../db/unavailable.js';

/** Longest wait for the database's `select 1`, ms; a slower answer counts as down. */
export const HEALTH_DATABASE_TIMEOUT_MS = 3_000;
const VERSION = '0.1.0';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        operationId: 'getHealth',
        description:
          'Answers 200 when the process runs and PostgreSQL answers `select 1` within 3 s; 503 with `database: down` and `Retry-After` while it does not (the embedded PostgreSQL restarting, an external one stopped or unreachable). For supervisors and load balancers.',
        tags: ['Health'],
        summary: 'Liveness and database check',
        response: {
          200: ZHealth.describe('The process and the database answer.'),
          503: ZHealthUnavailable.describe('The process answers, the database does not: other calls answer 503 problem details meanwhile.'),
        },
      },
    },
    async (_req, reply) => {
      if (await databaseAnswers(app.deps.db, HEALTH_DATABASE_TIMEOUT_MS)) return { status: 'ok' as const, database: 'ok' as const, version: VERSION };
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'unavailable' as const, database: 'down' as const, version: VERSION });
    },
  );
};
