/**
 * The parts of the OpenAPI description (`/api/v1/openapi.json`, DESIGN §5) that are
 * derived instead of written on each route, so that a new route is described fully
 * without edits here:
 *
 * - the problem-details responses (`application/problem+json`, schema
 *   `#/components/schemas/ProblemDetails`) of every operation, from its schema and
 *   its route config, by the rules the `/api/v1` onRequest hook enforces
 *   (`routeNeedsWrite`): 400 when it validates params, query or body; 401 unless
 *   `public`; 403 when it needs `write`; 404 when a path parameter names a resource
 *   (any path parameter that is not an enum); 429 always (rate limits, the sign-in
 *   throttle); plus the statuses the route's `config.problems` lists (409 and 422
 *   where its service throws `conflict()` or `unprocessable()`, 404 for an id in the
 *   body, 401 on sign-in); and 503 always (the database away, `db/unavailable.ts`),
 *   unless the route describes its own 503 (`GET /health`);
 * - `security: []` on public routes;
 * - a last sentence of each operation's description naming the permission it needs.
 *
 * The tags, with their descriptions, are declared by the modules (`tags` of each
 * `modules/<name>/<name>.module.ts`, in the order of `modules/index.ts`).
 *
 * This only shapes the document (the swagger `transform`): at run time the routes
 * keep their 2xx response schemas alone, and problem bodies are sent by the error
 * handler unchanged (no 4xx serializer that could drop `errors` or `attemptedValue`).
 *
 * Known limitations: the 400/401/403/404/429 rules describe what the hook, the
 * validator and the id lookups can answer; a service that throws another status must
 * list it in `config.problems` (the lint test cannot see a missing one).
 */
import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { SwaggerTransform } from '@fastify/swagger';
import { ZProblemDetails } from '@fleet/contracts';
import { routeNeedsWrite } from '../auth/principal.js';

/** A status a route may add to its derived problem responses (`config.problems`). */
export type ExtraProblemStatus = 401 | 403 | 404 | 409 | 422 | 502;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Problem statuses the route's service can answer beyond the derived ones (see
     * `lib/openapi.ts`): 409 for `conflict()`, 422 for `unprocessable()`, 404 when the
     * id is in the body. Documentation only.
     */
    problems?: readonly ExtraProblemStatus[];
    /** The route needs an admin (`sessionRoles`: permission `admin`, or `write` with group CustomerProductionAccess); the `/api/v1` hook checks it. */
    requireAdmin?: boolean;
    /**
     * An MMA protocol route (issue 27): called with an MMA authentication token
     * (security scheme `mmaAgentToken`), never a user's; the `/api/v1` hook sets
     * `req.mmaAgent` and no principal.
     */
    mmaAgent?: boolean;
  }
}

type ProblemStatus = 400 | 403 | 429 | 503 | ExtraProblemStatus;

const PROBLEMS: Record<ProblemStatus, string> = {
  400: 'Invalid input: `errors` lists every invalid field with its `propertyName`, `errorMessage` and `attemptedValue`.',
  401: 'No bearer token, or the token is invalid, expired or revoked, or the user is disabled (on sign-in: wrong username or password; on the MMA protocol: a user token, or an MMA token unknown or revoked).',
  403: 'The user lacks permission `write` (or is no admin where the operation says so), or group CustomerProductionAccess for a Customer Production change, or does not own the template, or started the rollout whose wave they approve or reject (ROLLOUT_REQUIRE_SECOND_APPROVER) (on sign-in: the password sign-in is switched off, or the single sign-on groups grant no access).',
  404: 'Not found, or hidden from this user (accounts and machines of class Customer Production without group CustomerProductionAccess).',
  409: 'Conflicts with the current state: a stale section version, a name already used, a task that is no longer New, a machine being terminated, an operation whose state refuses the decision, no operation to reset.',
  422: 'A business rule refuses the request (for example: add-on accounts have no instance settings, sites or keys).',
  429: 'Too many requests (the rate limit, or too many failed sign-ins): wait the seconds of `Retry-After`.',
  502: 'A service outside the console (the mail server) failed.',
  503: 'The database is not available right now (restarting, stopped or unreachable): send the request again after the seconds of `Retry-After`.',
};

/** Name of the security scheme of the MMA protocol's routes (an MMA authentication token as a bearer token). */
export const MMA_AGENT_SECURITY_SCHEME = 'mmaAgentToken';

/** Name of the shared problem-details schema in `components.schemas`. */
export const PROBLEM_SCHEMA_NAME = 'ProblemDetails';

/** The `components.schemas` entry every problem response refers to (JSON Schema 2020-12, as OpenAPI 3.1 uses). */
export const problemDetailsComponent = (): Record<string, unknown> => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(ZProblemDetails, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
  return { ...schema, description: 'RFC 9457 problem details, the body of every error answer (DESIGN §5).' };
};

/** The `Retry-After` header of a 429 or 503 answer. */
const RETRY_AFTER = { 'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before sending the request again' } };

function problemResponse(status: ProblemStatus) {
  return {
    description: PROBLEMS[status],
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${PROBLEM_SCHEMA_NAME}` } } },
  };
}

interface JsonParams {
  properties?: Record<string, { enum?: unknown[] }>;
}

/**
 * The problem statuses of one route (see the module docstring), ascending.
 * `params` is the route's params as JSON Schema (after the zod transform).
 */
export function problemStatuses(route: {
  method: string;
  url: string;
  config: {
    public?: boolean;
    selfService?: boolean;
    requireWrite?: boolean;
    requireAdmin?: boolean;
    mmaAgent?: boolean;
    problems?: readonly ExtraProblemStatus[];
  };
  validates: boolean;
  params?: JsonParams;
}): ProblemStatus[] {
  const statuses = new Set<ProblemStatus>([429, 503, ...(route.config.problems ?? [])]);
  if (route.validates) statuses.add(400);
  if (!route.config.public) {
    statuses.add(401);
    if (!route.config.mmaAgent && (route.config.requireAdmin || routeNeedsWrite(route.method, route.config))) statuses.add(403);
  }
  const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (pathParams.some((name) => !route.params?.properties?.[name]?.enum)) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

const ACCESS = {
  public: 'Public: no token needed.',
  read: 'Needs a signed-in user (any permission).',
  write: 'Needs permission `write`.',
  admin: 'Needs an admin: permission `admin`, or `write` with group CustomerProductionAccess.',
  mmaAgent: 'Needs an MMA authentication token (`POST /mma-agent/register`); user tokens are refused.',
  self: "Needs a signed-in user; acts on the user's own session or password, so no `write` needed.",
};

/**
 * The swagger `transform`: fastify-type-provider-zod's `jsonSchemaTransform`, then the
 * derived problem responses, public security and permission sentence of the route.
 */
export const apiDescriptionTransform: SwaggerTransform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = result.schema as Record<string, unknown> | undefined;
  const { route, url } = input;
  if (!schema || schema.hide || !url.startsWith('/api/')) return result;
  const config = (route.config ?? {}) as Parameters<typeof problemStatuses>[0]['config'];
  const method = String(route.method);
  const original = (input.schema ?? {}) as Record<string, unknown>;
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  // A route without a 2xx schema (a file download) keeps the success answer
  // @fastify/swagger gives a route without any response schema; `type: 'null'`
  // makes it emit no content rather than claim a JSON body.
  if (!Object.keys(response).some((status) => status.startsWith('2'))) {
    response[200] = { type: 'null', description: 'Success; the operation description says what the body holds.' };
  }
  const statuses = problemStatuses({
    method,
    url,
    config,
    validates: Boolean(original.params || original.querystring || original.body || original.headers),
    params: schema.params as JsonParams | undefined,
  });
  // A route's own description of a status wins (the health body of `GET /health` 503).
  for (const status of statuses) if (!(status in response)) response[status] = problemResponse(status);
  // The route's own 503 (the health body) comes with Retry-After too.
  response[503] = { headers: RETRY_AFTER, ...(response[503] as object) };
  const access = config.public
    ? ACCESS.public
    : config.mmaAgent
      ? ACCESS.mmaAgent
      : config.requireAdmin
        ? ACCESS.admin
        : routeNeedsWrite(method, config)
          ? ACCESS.write
          : config.selfService
            ? ACCESS.self
            : ACCESS.read;
  const description = typeof schema.description === 'string' ? `${schema.description.trim()} ${access}` : undefined;
  return {
    ...result,
    schema: {
      ...schema,
      response,
      ...(description ? { description } : {}),
      ...(config.public ? { security: [] } : config.mmaAgent ? { security: [{ [MMA_AGENT_SECURITY_SCHEME]: [] }] } : {}),
    },
  };
};

/**
 * `info` of the document. The console is not open source: the license is declared
 * proprietary (an SPDX `LicenseRef-`), which is what the private package means.
 */
export const API_INFO = {
  title: 'Fleet Console API',
  version: '0.1.0',
  description:
    'Accounts, machines and catalogues of the hosted platform (DESIGN §5). Sign in with `POST /api/v1/auth/login` and send ' +
    '`Authorization: Bearer <token>` on every other call. Paged lists take `startIndex` and `limit` and answer `{items, totalItems}`. ' +
    'Every error is problem details (`application/problem+json`); mutations need permission `write`; accounts and machines of class ' +
    'Customer Production are invisible (404) without group CustomerProductionAccess.',
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};
