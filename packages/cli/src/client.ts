/**
 * The API client of the command line (issue 28 point 4): openapi-fetch typed by
 * `api/fleet-api.d.ts` (generated from the OpenAPI document), and what becomes
 * of an answer: its data, or a {@link CliError} whose message is the server's
 * problem text and whose exit code a script can rely on ({@link EXIT}).
 */
import createClient from 'openapi-fetch';
import type { paths } from './api/fleet-api.js';
import { readCredentials, type Credentials } from './credentials.js';

/**
 * Exit codes of `fleet` (README.md beside this package's `src`): 0 done; 1 the
 * server refused or failed (its problem text on stderr); 2 a bad command line;
 * 3 not signed in, or the session ended (sign in again); 4 the server could not
 * be reached.
 */
export const EXIT = { ok: 0, refused: 1, usage: 2, signIn: 3, unreachable: 4 } as const;

/** A failure the command line reports on stderr and exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export type FleetClient = ReturnType<typeof createClient<paths>>;

/** An API problem (RFC 9457) as the server sends it. */
interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  errors?: { propertyName: string; errorMessage: string }[];
}

/** `Title: detail` and one line per field error, from a problem (or what the server sent instead). */
export function problemText(error: unknown, status: number): string {
  const p = (error && typeof error === 'object' ? error : {}) as Problem;
  const head = [p.title ?? `HTTP ${status}`, p.detail].filter(Boolean).join(': ');
  return [head, ...(p.errors ?? []).map((e) => `  ${e.propertyName}: ${e.errorMessage}`)].join('\n');
}

/** A client of `server`, with the bearer `token` when given; a network failure becomes a {@link CliError} `unreachable`. */
export function clientFor(server: string, token?: string): FleetClient {
  return createClient<paths>({
    baseUrl: server,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    fetch: async (request: Request) => {
      try {
        return await fetch(request);
      } catch (err) {
        const cause = (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
        throw new CliError(`Cannot reach the server at ${server} (${cause})`, EXIT.unreachable);
      }
    },
  });
}

/** The signed-in session and its client; a {@link CliError} `signIn` when there is none. */
export async function signedIn(env: NodeJS.ProcessEnv = process.env): Promise<{ credentials: Credentials; client: FleetClient }> {
  const credentials = await readCredentials(env);
  if (!credentials) throw new CliError('Not signed in: run fleet login --server <url> --username <name>', EXIT.signIn);
  return { credentials, client: clientFor(credentials.server, credentials.token) };
}

/**
 * The data of an answer, or a {@link CliError}: `signIn` for a 401 (the token
 * ended or was revoked), `refused` with the problem text for any other error.
 */
export async function data<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data: body, error, response } = await call;
  if (response.ok) return body as T;
  if (response.status === 401) throw new CliError(`${problemText(error, 401)}\nSign in again: fleet login`, EXIT.signIn);
  throw new CliError(problemText(error, response.status), EXIT.refused);
}
