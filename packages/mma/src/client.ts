/**
 * The MMA protocol's HTTP client (`/api/v1/mma-agent/...`; the server's
 * `mma-protocol.routes.ts` and `mma-agents.routes.ts`): global `fetch`, JSON
 * bodies, every answer parsed with the contracts' zod schema, one
 * `AbortSignal` per call (the caller's, joined with a per-call timeout).
 *
 * Errors:
 * - {@link HttpError} for an answer outside 2xx, with the problem details'
 *   `detail` (RFC 9457); {@link CredentialRejectedError} for 401 (the
 *   credential is revoked or unknown: the MMA stops).
 *   {@link isLeaseLost} tells a 409 or 404 about an operation (its lease is
 *   lost, or it is not this MMA's class's): drop the operation.
 * - A network error, a call that timed out, 5xx and 429 are **transient**:
 *   retried with exponential backoff and jitter (0.5 s doubling to 30 s by
 *   default, or the server's Retry-After), until they work or the caller's
 *   signal aborts; a 4xx never is. `heartbeat` is tried once (the heartbeat
 *   loop is its retry) and `register` is tried once (a person is waiting).
 *
 * Known limitations: no proxy settings of its own (Node's fetch honours none
 * of HTTPS_PROXY; put the MMA where it reaches the server directly or through
 * a transparent proxy).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import {
  ZMmaAgentRegisterResponse,
  ZMmaAgentSelf,
  ZMmaAppendResponse,
  ZMmaBackupFileUploaded,
  ZMmaClaimResponse,
  ZMmaImage,
  ZMmaSampleDataFileUploaded,
  ZMmaFinishResponse,
  ZMmaHeartbeatResponse,
  ZMmaMachineReportResponse,
  type TMmaAgentRegisterRequest,
  type TMmaAgentRegisterResponse,
  type TMmaAgentSelf,
  type TMmaAppendRequest,
  type TMmaAppendResponse,
  type TMmaBackupFileUploaded,
  type TMmaImage,
  type TMmaSampleDataFileUploaded,
  type TBackupSoftware,
  type TMmaClaimResponse,
  type TMmaFinishRequest,
  type TMmaFinishResponse,
  type TMmaHeartbeatResponse,
  type TMmaLease,
  type TMmaMachineReport,
  type TMmaMachineReportResponse,
} from '@fleet/contracts';
import type { MmaLogger } from './logger.js';

/** An answer outside 2xx: its status and the problem's `detail` (or title). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly call: string,
  ) {
    super(`${call}: ${status} ${detail}`);
    this.name = 'HttpError';
  }
}

/** 401: the MMA's credential (or the registration token) is unknown, used, expired or revoked. */
export class CredentialRejectedError extends HttpError {
  constructor(detail: string, call: string) {
    super(401, detail, call);
    this.name = 'CredentialRejectedError';
  }
}

/** A 2xx answer that does not match the contract (a server of another version?). */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The error means this MMA no longer holds the operation (409 lease lost or gap; 404 not its class): stop it without a finish. */
export const isLeaseLost = (err: unknown) => err instanceof HttpError && (err.status === 409 || err.status === 404);

/** Backoff of transient failures, ms: the first wait, and the longest. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 500, maxMs: 30_000 };

/** Longest wait for an answer, ms (a claim waits its long poll on top). */
const CALL_TIMEOUT_MS = 30_000;
/** Longest wait for a backup file's transfer, ms (up to MMA_BACKUP_FILE_MAX_BYTES). */
const FILE_TIMEOUT_MS = 600_000;

export interface MmaClient {
  /** `POST /mma-agent/register`: a registration token (`mmar_…`) exchanged once for the MMA's credential. Tried once. */
  register(body: TMmaAgentRegisterRequest, signal?: AbortSignal): Promise<TMmaAgentRegisterResponse>;
  /** `GET /mma-agent/whoami`: the MMA the credential belongs to (a check that it works). */
  whoami(signal?: AbortSignal): Promise<TMmaAgentSelf>;
  /** `POST /mma-agent/operations/claim`: a long poll of up to `waitSeconds` for up to `maxOperations` operations. */
  claim(body: { maxOperations: number; waitSeconds: number; leases?: TMmaLease[] }, signal?: AbortSignal): Promise<TMmaClaimResponse>;
  /** `POST /mma-agent/heartbeat`: renews `leases`; answers the lost ones and the cancels. Tried once. */
  heartbeat(leases: TMmaLease[], signal?: AbortSignal): Promise<TMmaHeartbeatResponse>;
  /** `POST /mma-agent/operations/{id}/append`: whole lines at an offset (code points); answers the stream's new length. */
  append(operationId: number, body: TMmaAppendRequest, signal?: AbortSignal): Promise<TMmaAppendResponse>;
  /** `POST /mma-agent/operations/{id}/finish`: SUCCESS or FAILURE of the attempt. */
  finish(operationId: number, body: TMmaFinishRequest, signal?: AbortSignal): Promise<TMmaFinishResponse>;
  /** `POST /mma-agent/machines/{id}/report`: a machine's site server status and installed versions. Tried once. */
  report(machineId: number, body: TMmaMachineReport, signal?: AbortSignal): Promise<TMmaMachineReportResponse>;
  /** `PUT /mma-agent/operations/{id}/backup-files/{software}`: a Backup's file of one software, its bytes gzip'd. */
  uploadBackupFile(o: TMmaLease & { software: TBackupSoftware; bytes: Uint8Array }, signal?: AbortSignal): Promise<TMmaBackupFileUploaded>;
  /** `PUT /mma-agent/operations/{id}/sample-data-file`: a PublishSampleData's zip (422: the name is taken, no site master). */
  uploadSampleDataFile(o: TMmaLease & { bytes: Uint8Array }, signal?: AbortSignal): Promise<TMmaSampleDataFileUploaded>;
  /** `POST /mma-agent/operations/{id}/image`: a CreateJumpStartAmi's image, made once by the server's cloud; its state now. */
  image(lease: TMmaLease, signal?: AbortSignal): Promise<TMmaImage>;
  /** `GET /mma-agent/operations/{id}/backup-files/{software}`: a RestoreBackup's chosen file of one software (422: the choice is wrong). */
  downloadBackupFile(o: TMmaLease & { software: TBackupSoftware }, signal?: AbortSignal): Promise<Uint8Array>;
}

export interface MmaClientOptions {
  /** The server's base URL (`https://fleet.example.com`, a path prefix allowed). */
  server: string;
  /** The MMA's credential (`mmat_…`); not needed by `register`. */
  token?: string;
  /** Sent as the User-Agent (`fleet-mma/<version> (<host>)`). */
  userAgent: string;
  log: MmaLogger;
  retry?: RetryPolicy;
}

/** A wait of attempt `n` (0-based): `base × 2^n` capped at `max`, with "equal jitter" (between half and all of it). */
export function backoffMs(n: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(n, 30));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** A network error, a per-call timeout, 5xx or 429: worth trying again. */
const transient = (err: unknown) =>
  (err instanceof HttpError && (err.status >= 500 || err.status === 429)) ||
  (err instanceof Error && (err.name === 'TimeoutError' || err instanceof TypeError));

/** Retry-After in seconds, as ms (the HTTP-date form is not read). */
const retryAfterMs = (res: Response) => {
  const s = Number(res.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? s * 1000 : 0;
};

/**
 * What both clients do with a call (see the module's comment): `attempt` until it works, a transient failure
 * retried with backoff when `retries` (else thrown), until `signal` aborts; the server's being away and back
 * logged once each. The in-process client of the server's embedded MMAs uses it too.
 */
export function createRetrier({ log, retry = DEFAULT_RETRY }: { log: MmaLogger; retry?: RetryPolicy }) {
  let unreachableSince: number | undefined;
  return async function retried<T>(o: { call: string; signal?: AbortSignal; retries: boolean }, attempt: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        const answer = await attempt();
        if (unreachableSince !== undefined) {
          log.info('Server reachable again', { afterSeconds: Math.round((Date.now() - unreachableSince) / 1000) });
          unreachableSince = undefined;
        }
        return answer;
      } catch (err) {
        if (o.signal?.aborted || !transient(err)) throw err;
        if (unreachableSince === undefined) {
          unreachableSince = Date.now();
          log.warn('Server unreachable; retrying with backoff, operations keep running', { call: o.call, error: describeError(err) });
        }
        if (!o.retries) throw err;
        const wait = Math.min(retry.maxMs, Math.max(backoffMs(n, retry), (err as { retryAfterMs?: number }).retryAfterMs ?? 0));
        await sleep(wait, undefined, { signal: o.signal });
      }
    }
  };
}

export function createMmaClient({ server, token, userAgent, log, retry = DEFAULT_RETRY }: MmaClientOptions): MmaClient {
  const base = `${server.replace(/\/+$/, '')}/api/v1/mma-agent`;
  const retried = createRetrier({ log, retry });

  /** One request; a 2xx answer as it came, else the problem (401: {@link CredentialRejectedError}). */
  async function request(o: {
    call: string;
    method: string;
    path: string;
    body?: unknown;
    /** A file's bytes, of the media type `contentType`. */
    bytes?: Uint8Array;
    contentType?: string;
    signal?: AbortSignal;
    timeoutMs: number;
    auth: boolean;
  }) {
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: o.method === 'GET' && o.body === undefined ? '*/*' : 'application/json' };
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    if (o.bytes !== undefined) headers['content-type'] = o.contentType ?? 'application/octet-stream';
    if (o.auth) {
      if (!token) throw new Error(`${o.call} needs the MMA's credential`);
      headers.authorization = `Bearer ${token}`;
    }
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const res = await fetch(`${base}${o.path}`, {
      method: o.method,
      headers,
      body: o.bytes ? new Blob([o.bytes as Uint8Array<ArrayBuffer>]) : o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
    });
    if (!res.ok) {
      const text = await res.text();
      let detail = res.statusText;
      try {
        const problem = JSON.parse(text) as { detail?: string; title?: string };
        detail = problem.detail ?? problem.title ?? detail;
      } catch {
        // Not problem details (a proxy's page): the status text says enough.
      }
      if (res.status === 401) throw new CredentialRejectedError(detail, o.call);
      throw Object.assign(new HttpError(res.status, detail, o.call), { retryAfterMs: retryAfterMs(res) });
    }
    return res;
  }

  /** One request whose answer is JSON of `schema`. */
  async function once<S extends z.ZodType>(o: Parameters<typeof request>[0] & { schema: S }) {
    const text = await (await request(o)).text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProtocolError(`${o.call}: the answer is not JSON`);
    }
    const parsed = o.schema.safeParse(json);
    if (!parsed.success) throw new ProtocolError(`${o.call}: unexpected answer (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
    return parsed.data as z.output<S>;
  }

  const call = <S extends z.ZodType>(o: Parameters<typeof once<S>>[0] & { retries: boolean }): Promise<z.output<S>> => retried(o, () => once(o));

  const post = <S extends z.ZodType>(callName: string, path: string, body: unknown, schema: S, signal: AbortSignal | undefined, extra: { retries?: boolean; timeoutMs?: number } = {}) =>
    call({ call: callName, method: 'POST', path, body, schema, signal, timeoutMs: extra.timeoutMs ?? CALL_TIMEOUT_MS, auth: true, retries: extra.retries ?? true });

  return {
    register: (body, signal) =>
      call({ call: 'register', method: 'POST', path: '/register', body, schema: ZMmaAgentRegisterResponse, signal, timeoutMs: CALL_TIMEOUT_MS, auth: false, retries: false }),
    whoami: (signal) => call({ call: 'whoami', method: 'GET', path: '/whoami', schema: ZMmaAgentSelf, signal, timeoutMs: CALL_TIMEOUT_MS, auth: true, retries: true }),
    claim: (body, signal) => post('claim', '/operations/claim', body, ZMmaClaimResponse, signal, { timeoutMs: body.waitSeconds * 1000 + CALL_TIMEOUT_MS }),
    heartbeat: (leases, signal) => post('heartbeat', '/heartbeat', { leases }, ZMmaHeartbeatResponse, signal, { retries: false }),
    append: (id, body, signal) => post('append', `/operations/${id}/append`, body, ZMmaAppendResponse, signal),
    finish: (id, body, signal) => post('finish', `/operations/${id}/finish`, body, ZMmaFinishResponse, signal),
    report: (id, body, signal) => post('report', `/machines/${id}/report`, body, ZMmaMachineReportResponse, signal, { retries: false }),
    uploadBackupFile: ({ operationId, attempt, software, bytes }, signal) =>
      call({
        call: 'upload backup file',
        method: 'PUT',
        path: `/operations/${operationId}/backup-files/${software}?attempt=${attempt}`,
        bytes,
        contentType: 'application/gzip',
        schema: ZMmaBackupFileUploaded,
        signal,
        timeoutMs: FILE_TIMEOUT_MS,
        auth: true,
        retries: true,
      }),
    uploadSampleDataFile: ({ operationId, attempt, bytes }, signal) =>
      call({
        call: 'upload sample data file',
        method: 'PUT',
        path: `/operations/${operationId}/sample-data-file?attempt=${attempt}`,
        bytes,
        contentType: 'application/zip',
        schema: ZMmaSampleDataFileUploaded,
        signal,
        timeoutMs: FILE_TIMEOUT_MS,
        auth: true,
        retries: true,
      }),
    image: ({ operationId, attempt }, signal) => post('image', `/operations/${operationId}/image`, { attempt }, ZMmaImage, signal),
    downloadBackupFile: ({ operationId, attempt, software }, signal) => {
      const o = { call: 'download backup file', method: 'GET', path: `/operations/${operationId}/backup-files/${software}?attempt=${attempt}`, signal, timeoutMs: FILE_TIMEOUT_MS, auth: true };
      return retried({ ...o, retries: true }, async () => new Uint8Array(await (await request(o)).arrayBuffer()));
    },
  };
}

/** An error as one line for the log: fetch's "fetch failed" says little, its cause says what. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
