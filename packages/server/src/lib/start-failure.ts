/**
 * Start-up failures in words (issue 9 "Crash and restart"): every way the
 * server can fail to start prints its cause and what to do, never a bare
 * `undefined` or a stack trace alone.
 */
import { inspect } from 'node:util';

/** A start-up failure whose cause is known: `message` says what happened, `hint` what the operator can do. */
export class StartFailure extends Error {
  constructor(
    message: string,
    readonly hint: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StartFailure';
  }
}

interface ErrorFields {
  code?: unknown;
  port?: unknown;
  address?: unknown;
  syscall?: unknown;
}

/**
 * The cause and the advice for any value a start-up step rejected with:
 * a {@link StartFailure} as is; an HTTP port in use or not allowed; a database
 * that cannot be reached, refuses the password or does not exist (DATABASE_URL);
 * any other Error by its message (with `unknown: true`, so that the caller also
 * prints its stack); a non-Error value (some libraries reject with `undefined`)
 * named as such.
 */
export function describeStartFailure(err: unknown): { message: string; hint: string; unknown?: true } {
  if (err instanceof StartFailure) return { message: err.message, hint: err.hint };
  // Drizzle wraps the driver's error ("Failed query: …") and keeps it as `cause`: the innermost known cause speaks.
  for (let cause = (err as { cause?: unknown } | null)?.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const known = describeStartFailure(cause);
    if (!known.unknown) return known;
  }
  if (!(err instanceof Error)) {
    return {
      message: `a start-up step failed without saying why (it rejected with ${inspect(err)})`,
      hint: 'Start again with LOG_LEVEL=trace to see the PostgreSQL output, and report this as a bug.',
      unknown: true,
    };
  }
  const { code, port, address, syscall } = err as ErrorFields;
  if (code === 'EADDRINUSE' && syscall === 'listen') {
    return {
      message: `port ${String(port)} is already in use by another process`,
      hint: `Stop the process listening on port ${String(port)} (another Fleet Console?), or set PORT to a free port.`,
    };
  }
  if (code === 'EACCES' && syscall === 'listen') {
    return { message: `not allowed to listen on port ${String(port)}`, hint: 'Set PORT to a port above 1023, or run with the right to bind it.' };
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH') {
    return {
      message: `cannot reach the database at ${String(address ?? '')}${port ? `:${String(port)}` : ''} (${String(code)})`,
      hint: 'Start PostgreSQL, or correct the host and port of DATABASE_URL.',
    };
  }
  if (code === '28P01' || code === '28000') {
    return { message: `the database refused the sign-in: ${err.message}`, hint: 'Correct the user and password of DATABASE_URL.' };
  }
  if (code === '3D000') {
    return { message: err.message, hint: 'Create the database (createdb <name>), or correct the database name of DATABASE_URL.' };
  }
  if (code === '57P03') {
    return { message: err.message, hint: 'The database is starting or stopping: start again in a few seconds.' };
  }
  return { message: err.message || err.name, hint: 'See the error below; start again with LOG_LEVEL=debug for more detail.', unknown: true };
}
