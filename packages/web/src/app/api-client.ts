/**
 * The one HTTP client of the console (spec 1 §7 "Base", §8; DESIGN §5).
 *
 * - Base `/api/v1`, 60 s timeout, no automatic retries, `Authorization: Bearer`
 *   from the stored token.
 * - Every failure becomes an `ApiError` carrying the problem details body
 *   (status, title, detail, errors). A timeout or network failure is an
 *   `ApiError` with status 0.
 * - A 401 from any call except `POST /auth/login` clears the token; the route
 *   guard then sends the user to /login (with a redirect back).
 */
import ky, { HTTPError, TimeoutError } from 'ky';
import type { TFieldError, TProblemDetails } from '@fleet/contracts';
import { fileNameFromDisposition, type DownloadedFile } from '../lib/download';
import { clearToken, getToken } from './auth/token-store';

export const API_BASE = '/api/v1';
/** HTTP timeout, milliseconds (spec 1 §9). */
export const HTTP_TIMEOUT_MS = 60_000;

const LOGIN_PATH = 'auth/login';

/** A failed API call: the problem details of the answer (DESIGN §5). */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: TFieldError[];

  constructor(problem: Pick<TProblemDetails, 'status' | 'title' | 'detail' | 'errors'>) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
  }
}

/** The text to show for an error: the server's detail, else its title, else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail ?? error.title;
  return fallback;
}

const http = ky.create({
  prefixUrl: API_BASE,
  timeout: HTTP_TIMEOUT_MS,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = getToken();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
  },
});

function isProblem(body: unknown): body is TProblemDetails {
  return typeof body === 'object' && body !== null && 'status' in body && 'title' in body;
}

async function toApiError(error: unknown, path: string): Promise<ApiError> {
  if (error instanceof HTTPError) {
    const { status, statusText } = error.response;
    const body: unknown = await error.response.json().catch(() => undefined);
    // After reading the body: clearing the token cancels the queries that depend on it.
    if (status === 401 && path !== LOGIN_PATH) clearToken();
    return new ApiError(isProblem(body) ? body : { status, title: statusText || `HTTP ${status}` });
  }
  if (error instanceof TimeoutError) {
    return new ApiError({ status: 0, title: 'Timeout', detail: 'The server did not answer in time' });
  }
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  return new ApiError({ status: 0, title: 'Network error', detail: 'The server could not be reached' });
}

/** Query string values; `undefined` and empty strings are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

interface RequestOptions {
  searchParams?: QueryParams;
  json?: unknown;
  signal?: AbortSignal;
}

function cleanParams(params: QueryParams | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== '',
  );
  return Object.fromEntries(entries.map(([k, v]) => [k, String(v)]));
}

async function send(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, opts: RequestOptions = {}): Promise<Response> {
  try {
    return await http(path, {
      method,
      searchParams: cleanParams(opts.searchParams),
      json: opts.json,
      signal: opts.signal,
    });
  } catch (error) {
    throw await toApiError(error, path);
  }
}

async function request<T>(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, opts: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, opts);
  try {
    // As ky's `.json()`: an empty body (204) answers ''.
    const text = await response.text();
    return (text === '' ? '' : JSON.parse(text)) as T;
  } catch (error) {
    throw await toApiError(error, path);
  }
}

/** `GET` a file: its bytes and the name of its `Content-Disposition` (else `fallbackName`). Rejects like the JSON calls. */
async function file(path: string, fallbackName: string, opts?: Omit<RequestOptions, 'json'>): Promise<DownloadedFile> {
  const response = await send('get', path, opts);
  const blob = await response.blob();
  return { blob, fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? fallbackName };
}

/** Typed calls relative to `/api/v1` (paths without a leading slash, e.g. `accounts/info`). */
export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, 'json'>) => request<T>('get', path, opts),
  post: <T>(path: string, json?: unknown, opts?: RequestOptions) => request<T>('post', path, { ...opts, json }),
  put: <T>(path: string, json?: unknown, opts?: RequestOptions) => request<T>('put', path, { ...opts, json }),
  patch: <T>(path: string, json?: unknown, opts?: RequestOptions) => request<T>('patch', path, { ...opts, json }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('delete', path, opts),
  file,
};
