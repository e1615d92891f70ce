/** `GET /health`: the process answers and the database is reachable. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { ZHealth } from '@fleet/contracts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Liveness and database check', security: [], response: { 200: ZHealth } },
    },
    async () => {
      await app.deps.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const, version: '0.1.0' };
    },
  );
};
