/**
 * The MMA protocol's client for an MMA inside the server's own process (issue
 * 27 point 3: "the worker runs the reference MMA's simulated executor in
 * process, through the same protocol code path"): the reference MMA's
 * `MmaClient` (`packages/mma/src/client.ts`) whose calls are the protocol
 * service's methods (`mma-protocol.service.ts`, what the routes call) for one
 * principal, with no HTTP between them.
 *
 * - Answers are the service's own objects, already of the contract's shapes.
 * - A problem the service throws (`lib/problem.ts`) becomes the HTTP client's
 *   error of its status: {@link HttpError} (409 and 404 mean the lease is lost,
 *   as over HTTP), {@link CredentialRejectedError} for 401.
 * - Any other error (the database away) is a 503: transient, retried with the
 *   HTTP client's backoff (`createRetrier`) where the HTTP client retries, so
 *   the MMA's runs ride out a database restart as a remote MMA rides out the
 *   server's.
 * - `register` and `whoami` are the remote MMA's; an MMA in process has its
 *   principal from the worker and never calls them (they throw).
 */
import type { EventEmitter } from 'node:events';
import { createRetrier, CredentialRejectedError, HttpError, type MmaClient, type RetryPolicy } from '@fleet/mma/client';
import type { MmaLogger } from '@fleet/mma/logger';
import { HttpProblem } from '../../lib/problem.js';
import type { MmaAgentPrincipal } from '../mma-agents/mma-agents.service.js';
import type { MmaProtocolService } from './mma-protocol.service.js';

/** The HTTP client's error for what the service threw in call `call`. */
function asHttpError(err: unknown, call: string): Error {
  if (err instanceof HttpProblem) {
    const detail = err.detail ?? err.title;
    return err.status === 401 ? new CredentialRejectedError(detail, call) : new HttpError(err.status, detail, call);
  }
  return new HttpError(503, err instanceof Error ? err.message : String(err), call);
}

export function createInProcessMmaClient({
  service,
  principal,
  log,
  retry,
  wakeups,
}: {
  service: MmaProtocolService;
  principal: MmaAgentPrincipal;
  log: MmaLogger;
  retry?: RetryPolicy;
  /** Emits `'wake'` when an operation may have been queued: a waiting claim looks again at once. */
  wakeups?: EventEmitter;
}): MmaClient {
  const retried = createRetrier({ log, retry });
  /** One service call as the HTTP client makes it: retried when `retries`, its errors as HTTP's. */
  const call = <T>(name: string, signal: AbortSignal | undefined, retries: boolean, attempt: () => Promise<T>) =>
    retried({ call: name, signal, retries }, async () => {
      try {
        return await attempt();
      } catch (err) {
        throw asHttpError(err, name);
      }
    });
  const remoteOnly = (name: string) => () => Promise.reject(new Error(`${name} is a remote MMA's call: an MMA in process has its principal from the worker`));

  return {
    register: remoteOnly('register'),
    whoami: remoteOnly('whoami'),
    claim: (body, signal) => call('claim', signal, true, () => service.claim(principal, { ...body, signal, wakeups })),
    heartbeat: (leases, signal) => call('heartbeat', signal, false, () => service.heartbeat(principal, leases)),
    append: (id, body, signal) => call('append', signal, true, () => service.append(principal, id, body)),
    finish: (id, body, signal) => call('finish', signal, true, () => service.finish(principal, id, body)),
    report: (id, body, signal) => call('report', signal, false, () => service.report(principal, id, body)),
    uploadBackupFile: (o, signal) => call('upload backup file', signal, true, () => service.uploadBackupFile(principal, o)),
    uploadSampleDataFile: (o, signal) => call('upload sample data file', signal, true, () => service.uploadSampleDataFile(principal, o)),
    image: (lease, signal) => call('image', signal, true, () => service.image(principal, lease)),
    downloadBackupFile: (o, signal) => call('download backup file', signal, true, async () => (await service.downloadBackupFile(principal, o)).bytes),
  };
}
