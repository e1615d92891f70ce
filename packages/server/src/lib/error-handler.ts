/**
 * Every error answer as RFC 9457 problem details (`application/problem+json`,
 * DESIGN §5): the app's error handler, the router's refusals and the field errors
 * of a validation failure (`errors`: `propertyName`, `errorMessage`,
 * `attemptedValue`). `buildApp` installs them; the OpenAPI description of these
 * answers is derived in `lib/openapi.ts`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { TFieldError, TProblemDetails } from '@fleet/contracts';
import { HttpProblem } from './problem.js';
import { isDatabaseInputError, sqlState } from './input-guard.js';
import { databaseUnavailableAnswer } from '../db/unavailable.js';

/** Sends `body` with its status, `headers` and the problem media type. */
export function sendProblem(reply: FastifyReply, body: TProblemDetails, headers: Record<string, string> = {}) {
  return reply.code(body.status).headers(headers).type('application/problem+json').send(body);
}

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
};

function valueAt(source: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), source);
}

/** Longest attempted string value echoed back in a field error. */
const MAX_ECHOED_LENGTH = 200;

/**
 * The attempted value as a field error shows it: scalars as sent (long strings
 * cut to 200 characters), objects and arrays left out, since they can be
 * megabytes or thousands of levels deep.
 */
function echoed(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHOED_LENGTH ? `${value.slice(0, MAX_ECHOED_LENGTH)}…` : value;
  return value !== null && typeof value === 'object' ? undefined : value;
}

/**
 * Field errors of a zod validation failure, named by their path (`limit`,
 * `contact.email`). Query and path parameters are named by the parameter alone,
 * since the user sent one string even when it holds a comma list.
 */
function fieldErrors(error: FastifyError, req: FastifyRequest): TFieldError[] {
  const context = (error.validationContext ?? 'body') as 'body' | 'querystring' | 'params' | 'headers';
  const source = context === 'querystring' ? req.query : context === 'params' ? req.params : context === 'headers' ? req.headers : req.body;
  return (error.validation ?? []).map((v) => {
    const issue = (v.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue;
    let path = issue?.path?.map(String) ?? v.instancePath.split('/').filter(Boolean);
    if (context !== 'body') path = path.slice(0, 1);
    return {
      propertyName: path.join('.') || context,
      errorMessage: v.message ?? 'Invalid value',
      attemptedValue: echoed(valueAt(source, path)),
    };
  });
}

/**
 * The router's own refusals (Fastify's `frameworkErrors`: a malformed URL, a path
 * parameter past 100 characters) as a 400 problem naming `path`.
 */
export function frameworkErrorHandler(error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is longer than 100 characters' : 'The URL is malformed';
  return sendProblem(reply, { type: 'about:blank', title: STATUS_TITLES[status] ?? 'Bad Request', status, detail, errors: [{ propertyName: 'path', errorMessage: detail }] });
}

/**
 * The app's error handler: a validation failure is a 400 with every field error;
 * the database away (`db/unavailable.ts`) is a 503 with `Retry-After`; an
 * {@link HttpProblem} is sent as thrown; a body that could not be parsed is its
 * 4xx naming `body`; a value PostgreSQL refused is a 400 (and logged as the
 * missing schema bound it is); another 4xx keeps its status; anything else, a
 * response that does not match its schema included, is logged and answered 500
 * 'An unexpected error occurred'.
 */
export function apiErrorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return sendProblem(reply, {
      type: 'https://fleet-console.dev/problems/validation',
      title: 'Bad Request',
      status: 400,
      detail: 'One or more fields are invalid',
      errors: fieldErrors(error, req),
    });
  }
  // The database is away (restarting, unreachable): 503 with Retry-After, not 500.
  const unavailable = databaseUnavailableAnswer(error, req.log);
  if (unavailable) return sendProblem(reply, unavailable.body, unavailable.headers);
  if (error instanceof HttpProblem) {
    return sendProblem(
      reply,
      { type: 'about:blank', title: error.title, status: error.status, detail: error.detail, errors: error.errors },
      error.headers,
    );
  }
  if (error.code?.startsWith('FST_ERR_CTP_')) {
    // The body could not be parsed (malformed JSON, empty JSON body, wrong media
    // type, too large): the field at fault is the body itself.
    const status = error.statusCode ?? 400;
    return sendProblem(reply, {
      type: 'about:blank',
      title: STATUS_TITLES[status] ?? 'Bad Request',
      status,
      detail: error.message,
      errors: [{ propertyName: 'body', errorMessage: error.message }],
    });
  }
  if (isDatabaseInputError(error)) {
    // A value passed its schema but PostgreSQL refused it: the schema lacks a
    // bound. Answer as the input error it is, and log it as the defect it is.
    req.log.error({ err: error, sqlState: sqlState(error), route: req.routeOptions.url }, 'input reached the database unchecked (schema lacks a bound)');
    return sendProblem(reply, {
      type: 'https://fleet-console.dev/problems/database-input',
      title: 'Bad Request',
      status: 400,
      detail: 'A value is out of range or malformed',
      errors: [{ propertyName: 'request', errorMessage: 'A value is out of range or malformed' }],
    });
  }
  if (isResponseSerializationError(error)) {
    req.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
  } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return sendProblem(reply, {
      type: 'about:blank',
      title: STATUS_TITLES[error.statusCode] ?? 'Bad Request',
      status: error.statusCode,
      detail: error.message,
    });
  } else {
    req.log.error({ err: error }, 'unhandled error');
  }
  return sendProblem(reply, { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred' });
}
