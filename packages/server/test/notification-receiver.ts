/**
 * A local HTTP receiver for the notification tests (issue 28 point 3): records
 * every request (path, headers, raw body), answers 200 or, while told to fail,
 * the status it is given; can hold each answer for `delayMs`. `waitFor` resolves
 * when the recorded requests satisfy a condition (checked at each request), so
 * no test sleeps for a fixed time.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: ReceivedRequest[];
  /** Answer this status from now on (null: 200 again). */
  failWith(status: number | null): void;
  /** Hold each answer this many ms (0: answer at once). */
  delayMs: number;
  /** Resolves once `until(requests)` holds; rejects after `timeoutMs` (default 15 s) naming what it saw. */
  waitFor(until: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  let status: number | null = null;
  const receiver = {
    delayMs: 0,
    requests,
  } as Receiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = () => {
        requests.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = status ?? 200;
        res.end(status ? 'failing on purpose' : 'ok');
        for (const check of [...waiters]) check();
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.failWith = (s) => {
    status = s;
  };
  receiver.waitFor = (until, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!until(requests)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`receiver: condition not met after ${timeoutMs} ms (${requests.length} requests)`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/** Whether `X-Fleet-Signature` of a received request is the HMAC-SHA256 of its raw body under `secret` (compared in constant time). */
export function signatureVerifies(request: ReceivedRequest, secret: string): boolean {
  const header = String(request.headers['x-fleet-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}
