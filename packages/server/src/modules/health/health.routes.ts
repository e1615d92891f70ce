/** `GET /health`: the process answers and the database is reachable. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { ZHealth } from '@fleet/contracts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        operationId: 'getHealth',
        description: 'Answers when the process runs and PostgreSQL answers `select 1`; for supervisors and load balancers.',
        tags: ['Health'],
        summary: 'Liveness and database check',
        response: { 200: ZHealth },
      },
    },
    async () => {
      await app.deps.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const, version: '0.1.0' };
    },
  );
};
