/**
 * `GET /metrics` (issue 28 point 1): the process's metrics in the Prometheus
 * text format (`fleet-metrics.ts`), for a bearer token of its own
 * (`METRICS_TOKEN`), not a user's: Prometheus' `authorization` with
 * `credentials` (or `bearer_token_file`) sends it. Answers 401 problem details
 * without it or with another token; the route does not exist (404) when
 * `METRICS_TOKEN` is unset.
 *
 * The API roles serve it beside the API ({@link registerMetricsRoute} in
 * `app.ts`); a worker, which serves no API, on a listener of its own
 * ({@link startMetricsServer}, `METRICS_PORT`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { unauthorized } from '../lib/problem.js';
import { apiErrorHandler } from '../lib/error-handler.js';
import type { FleetMetrics } from './fleet-metrics.js';

/** The metrics and the token that may read them (`Config.metrics`). */
export interface MetricsEndpoint {
  metrics: FleetMetrics;
  token: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  return given.length > 0 && timingSafeEqual(digest(given), digest(token));
}

/**
 * The `route` label of a request: its route's template under `/api/` and
 * `/metrics`; `console` for the console's files (one route per built file,
 * renamed by every build); `unmatched` for a path no route has (404).
 */
export function routeLabel(template: string | undefined): string {
  if (template === undefined) return 'unmatched';
  return template.startsWith('/api/') || template === '/metrics' ? template : 'console';
}

/** Adds `GET /metrics` and the request histogram (`onResponse`) to `app`. */
export function registerMetricsRoute(app: FastifyInstance, { metrics, token }: MetricsEndpoint): void {
  app.addHook('onResponse', async (req, reply) => {
    metrics.observeRequest(req.method, routeLabel(req.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, token)) throw unauthorized('The metrics token (METRICS_TOKEN) is required as a bearer token');
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
}

/**
 * A worker's metrics listener: `GET /metrics` alone on `port` (`METRICS_PORT`),
 * errors as problem details. Answers the running server; close it to stop.
 */
export async function startMetricsServer(endpoint: MetricsEndpoint, port: number): Promise<FastifyInstance> {
  const app = Fastify() as unknown as FastifyInstance;
  app.setErrorHandler(apiErrorHandler);
  registerMetricsRoute(app, endpoint);
  await app.listen({ port, host: '0.0.0.0' });
  return app;
}
