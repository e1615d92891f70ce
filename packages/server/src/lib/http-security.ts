/**
 * Security headers and request rate limits of every HTTP answer: the console's
 * files, the API and the API docs (issue 9 §5; the reasons are in
 * docs/architecture.md, Decisions).
 *
 * - Headers (`@fastify/helmet`): a Content-Security-Policy that allows scripts
 *   from the server only, no inline script and no framing (`frame-ancestors
 *   'none'`, and X-Frame-Options DENY for older browsers); nosniff; Referrer-Policy
 *   `no-referrer`; Strict-Transport-Security only on a request that came over TLS
 *   (directly or, since the app trusts its proxy, with `X-Forwarded-Proto: https`).
 * - Limits (`@fastify/rate-limit`, one fixed window a minute): every request is
 *   counted against its client address in `onRequest`, before authentication, so
 *   that a flood of bad tokens is limited too; a signed-in request is also
 *   counted against its user in `preParsing`, after the `/api/v1` scope's
 *   `onRequest` hook has authenticated it and before its body is parsed. Past
 *   either limit the answer is 429 problem details with `Retry-After` (seconds).
 *   The sign-in throttle of the auth service (5 failures a minute per username and
 *   address) is separate and unchanged.
 *
 * Known limitations: the counters live in the process's memory, so with several
 * API processes (`ROLE=api`) each process counts on its own; the client address
 * comes from `X-Forwarded-For` (the app trusts its proxy), so a client that
 * reaches the server directly, without a proxy that overwrites that header, can
 * choose its address. The Socket.IO push channel is served by the HTTP server
 * beside Fastify and is not counted.
 */
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { HttpProblem } from './problem.js';

/**
 * The console's Content-Security-Policy directives.
 * - `style-src 'unsafe-inline'`: antd's CSS-in-JS inserts `<style>` elements at
 *   run time, and index.html carries its first-paint style inline.
 * - `img-src data:`: antd draws some images (empty states, icons) as data URLs.
 * - `connect-src 'self'`: the API and the push channel at `/taskHub` (its
 *   WebSocket upgrade included: CSP Level 3's `'self'` matches `ws:`/`wss:` of the
 *   page's own host and port).
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** One year, as browsers' preload lists expect. */
const HSTS = 'max-age=31536000; includeSubDomains';

const ONE_MINUTE_MS = 60_000;

function tooManyRequests(ttlInSeconds: number, whose: string) {
  const seconds = Math.max(1, ttlInSeconds);
  return new HttpProblem(
    429,
    'Too Many Requests',
    `Too many requests from this ${whose}. Try again in ${seconds} seconds.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

/**
 * Registers the headers and the limits on the root instance. Call it before any
 * route or scope is registered, so that its hooks run first on every request.
 * `limits` are requests a minute per user and per address (`Config.rateLimit`).
 */
export async function registerHttpSecurity(app: FastifyInstance, limits: Config['rateLimit']): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Sent below, and only over TLS: over plain HTTP the header is meaningless,
    // and a console reached once by https on a name would lock that name to https.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });

  // `global: false`: the limiters below are hooks of their own, not per-route hooks,
  // so the address is counted before any scope's hook (authentication) runs.
  await app.register(fastifyRateLimit, { global: false });
  const perAddress = app.createRateLimit({
    max: limits.perAddress,
    timeWindow: ONE_MINUTE_MS,
    keyGenerator: (req: FastifyRequest) => `address:${req.ip}`,
  });
  const perUser = app.createRateLimit({
    max: limits.perUser,
    timeWindow: ONE_MINUTE_MS,
    keyGenerator: (req: FastifyRequest) => `user:${req.principal!.userId}`,
  });
  app.addHook('onRequest', async (req) => {
    const counted = await perAddress(req);
    if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(counted.ttlInSeconds, 'address');
  });
  app.addHook('preParsing', async (req) => {
    if (!req.principal) return;
    const counted = await perUser(req);
    if (!counted.isAllowed && counted.isExceeded) throw tooManyRequests(counted.ttlInSeconds, 'user');
  });
}
