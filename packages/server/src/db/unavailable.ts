/**
 * A database that is away, as the API answers it (issue 23 "The process
 * survives its database"; DESIGN §5): while PostgreSQL restarts, shuts down or
 * cannot be reached, a call that needs it answers 503 problem details with
 * `Retry-After` instead of 500, and `GET /health` answers 503 `database: down`.
 * Nothing is retried inside the request: the client sends it again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TProblemDetails } from '@fleet/contracts';
import { isDatabaseGone, type Db } from './client.js';

/** Seconds a client is told to wait (`Retry-After`) before sending a call again while the database is away. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Socket codes of a database host that cannot be reached (DATABASE_URL), beyond those of {@link isDatabaseGone}. */
const UNREACHABLE_CODES = new Set(['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that cannot take the connection now: class 08 (connection exception), 53300 (too many connections). */
const UNAVAILABLE_STATE = /^(08...|53300)$/;
/** What node-postgres and pg-pool say when a connection could not be made in time. */
const TIMEOUT_MESSAGE = /timeout exceeded when trying to connect|connection timeout/i;

/**
 * True when `err` (or a `cause` of it, as Drizzle wraps the driver's error)
 * says that the database cannot serve the call now rather than that the call
 * is wrong: everything {@link isDatabaseGone} knows (57P01 admin shutdown,
 * 57P02, 57P03 cannot connect now, ECONNREFUSED, ECONNRESET, a terminated
 * connection, an ended pool), an unreachable host, a connection exception
 * (SQLSTATE class 08), too many connections (53300), a connect timeout.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isDatabaseGone(err)) return true;
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
    if (typeof message === 'string' && TIMEOUT_MESSAGE.test(message)) return true;
  }
  return false;
}

/** When the last request met the database away and it was logged at warn (ms since the epoch). */
let warnedAt = 0;
/** At most one warn line per this many ms while the database is away; the others go to debug. */
const WARN_EVERY_MS = 10_000;

/**
 * The answer to a request whose handler failed with `err`, if that is the
 * database being away: 503 problem details and `Retry-After`
 * ({@link DATABASE_RETRY_AFTER_S}). Logs the cause (warn at most every 10 s,
 * debug otherwise). Answers undefined for any other error.
 */
export function databaseUnavailableAnswer(
  err: unknown,
  log: FastifyBaseLogger,
): { body: TProblemDetails; headers: Record<string, string> } | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  // The driver's words, not Drizzle's "Failed query: …" around them.
  let inner = err;
  for (let depth = 0; (inner as { cause?: unknown } | null)?.cause && depth < 5; depth++) inner = (inner as { cause?: unknown }).cause;
  const message = inner instanceof Error ? inner.message : String(inner);
  if (Date.now() - warnedAt >= WARN_EVERY_MS) {
    warnedAt = Date.now();
    log.warn({ err: message }, 'a request met the database away: answered 503');
  } else {
    log.debug({ err: message }, 'a request met the database away: answered 503');
  }
  return {
    body: {
      type: 'https://fleet-console.dev/problems/database-unavailable',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The database is not available right now; send the request again in a few seconds',
    },
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  };
}

/**
 * Whether PostgreSQL answers `select 1` on `db`'s pool within `timeoutMs`
 * (what `GET /health` reports). Never rejects: any failure or a late answer is
 * false (a late query still ends on its own and gives its connection back).
 */
export async function databaseAnswers(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
