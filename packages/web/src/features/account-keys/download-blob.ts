/**
 * Blob downloads of the console (spec 1 §7 "Blob downloads": `/files/license`,
 * `/files/license-keys`, `/files/keys`, `/files/caa-key`).
 *
 * `fetchBlob(path)` calls `GET /api/v1/{path}` with the bearer token and the
 * console's 60 s timeout and answers the body as a Blob together with the file
 * name the server put in `Content-Disposition` (RFC 6266: `filename*=UTF-8''…`
 * preferred over `filename="…"`). `saveBlob` hands the Blob to the browser as a
 * download under that name.
 *
 * Errors: like the JSON client, a failure is an `ApiError` with the problem
 * details body (status 0 for a timeout or network failure); a 401 clears the
 * stored token so the route guard sends the user to /login.
 */
import ky, { HTTPError, TimeoutError } from 'ky';
import type { TProblemDetails } from '@fleet/contracts';
import { API_BASE, ApiError, HTTP_TIMEOUT_MS } from '../../app/api-client';
import { clearToken, getToken } from '../../app/auth/token-store';

/** A downloaded file: its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  /** From `Content-Disposition`; `fallbackName` when the header has none. */
  fileName: string;
}

/**
 * The file name of a `Content-Disposition` header value, or undefined.
 * `attachment; filename="a b.zip"; filename*=UTF-8''a%20b.zip` → 'a b.zip'.
 */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain parameter below.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1]) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1];
}

function isProblem(body: unknown): body is TProblemDetails {
  return typeof body === 'object' && body !== null && 'status' in body && 'title' in body;
}

/**
 * `GET /api/v1/{path}` as a file (path without a leading slash, e.g.
 * `accounts/7/files/keys`). Rejects with `ApiError` (see module docstring).
 */
export async function fetchBlob(path: string, fallbackName: string, signal?: AbortSignal): Promise<DownloadedFile> {
  const token = getToken();
  try {
    const response = await ky.get(path, {
      prefixUrl: API_BASE,
      timeout: HTTP_TIMEOUT_MS,
      retry: 0,
      signal,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    const blob = await response.blob();
    return { blob, fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? fallbackName };
  } catch (error) {
    if (error instanceof HTTPError) {
      const { status, statusText } = error.response;
      const body: unknown = await error.response.json().catch(() => undefined);
      if (status === 401) clearToken();
      throw new ApiError(isProblem(body) ? body : { status, title: statusText || `HTTP ${status}` });
    }
    if (error instanceof TimeoutError) {
      throw new ApiError({ status: 0, title: 'Timeout', detail: 'The server did not answer in time' });
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, title: 'Network error', detail: 'The server could not be reached' });
  }
}

/** Offers `file` to the browser as a download under its file name. */
export function saveBlob(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before releasing the URL.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
