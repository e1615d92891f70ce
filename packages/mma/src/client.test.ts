/**
 * The protocol client (`client.ts`) against a small HTTP server that answers
 * what each test scripts: the URL, method, credential and body it sends; 5xx,
 * 429 and a refused connection retried with backoff; 4xx never; 401 as
 * CredentialRejectedError; the problem's `detail`; an answer off the contract
 * refused; the heartbeat tried once; an abort ending the retries.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialRejectedError, HttpError, ProtocolError, backoffMs, createMmaClient, isLeaseLost } from './client.js';
import { createMemoryLogger } from './logger.js';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
let server: Server;
let url: string;
let replies: Reply[];
let seen: { method: string; url: string; authorization?: string; userAgent?: string; body: unknown }[];

const read = async (req: IncomingMessage) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, userAgent: req.headers['user-agent'], body: await read(req) });
    const reply = replies.shift() ?? { status: 500, body: { title: 'Internal Server Error' } };
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fleet/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  replies = [];
  seen = [];
});

const retry = { baseMs: 10, maxMs: 40 };
const client = (o: { server?: string } = {}) => {
  const log = createMemoryLogger();
  return { log, c: createMmaClient({ server: o.server ?? url, token: 'mmat_secret', userAgent: 'fleet-mma/0.1.0 (test)', log, retry }) };
};
const problem = (status: number, detail: string): Reply => ({ status, body: { type: 'about:blank', title: 'x', status, detail } });

describe('MMA client', () => {
  it('posts JSON with the credential under the server’s path, and parses the answer with the contract', async () => {
    replies.push({ status: 200, body: { offset: 42 } });
    const { c } = client();
    expect(await c.append(7, { attempt: 1, stream: 'output', offset: 0, text: 'a\n' })).toEqual({ offset: 42 });
    expect(seen).toEqual([
      { method: 'POST', url: '/fleet/api/v1/mma-agent/operations/7/append', authorization: 'Bearer mmat_secret', userAgent: 'fleet-mma/0.1.0 (test)', body: { attempt: 1, stream: 'output', offset: 0, text: 'a\n' } },
    ]);
  });

  it('retries 5xx and 429 with backoff until it works, and says when the server is back', async () => {
    replies.push(problem(503, 'restarting'), { status: 429, body: {}, headers: { 'retry-after': '0' } }, problem(502, 'bad gateway'), { status: 200, body: { operationId: 7, status: 'SUCCESS' } });
    const { c, log } = client();
    expect(await c.finish(7, { attempt: 1, status: 'SUCCESS' })).toEqual({ operationId: 7, status: 'SUCCESS' });
    expect(seen).toHaveLength(4);
    expect(log.lines[0]).toMatch(/^warn {2}Server unreachable; retrying/);
    expect(log.lines.at(-1)).toMatch(/^info {2}Server reachable again/);
  });

  it('never retries a 4xx; names 409/404 lease lost and 401 a refused credential, with the problem’s detail', async () => {
    const { c } = client();
    replies.push(problem(409, 'The lease of operation 7 (attempt 1) is lost'));
    const lost = await c.finish(7, { attempt: 1, status: 'SUCCESS' }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(HttpError);
    expect(lost).toMatchObject({ status: 409, detail: 'The lease of operation 7 (attempt 1) is lost' });
    expect(isLeaseLost(lost)).toBe(true);
    replies.push(problem(404, 'Operation 7 was not found'));
    expect(isLeaseLost(await c.finish(7, { attempt: 1, status: 'SUCCESS' }).catch((e: unknown) => e))).toBe(true);
    replies.push(problem(401, 'The MMA token is revoked'));
    const refused = await c.claim({ maxOperations: 1, waitSeconds: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CredentialRejectedError);
    expect((refused as Error).message).toBe('claim: 401 The MMA token is revoked');
    replies.push(problem(400, 'One or more fields are invalid'));
    await expect(c.heartbeat([])).rejects.toMatchObject({ status: 400 });
    expect(seen).toHaveLength(4);
  });

  it('refuses an answer that does not match the contract', async () => {
    replies.push({ status: 200, body: { operations: [{ operationId: 'seven' }] } });
    await expect(client().c.claim({ maxOperations: 1, waitSeconds: 0 })).rejects.toBeInstanceOf(ProtocolError);
  });

  it('tries the heartbeat once (its loop retries), and retries a refused connection until aborted', async () => {
    replies.push(problem(503, 'restarting'));
    await expect(client().c.heartbeat([{ operationId: 1, attempt: 1 }])).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const abort = new AbortController();
    const { c, log } = client({ server: `http://127.0.0.1:${port}` });
    const pending = c.append(1, { attempt: 1, stream: 'output', offset: 0, text: 'a\n' }, abort.signal);
    setTimeout(() => abort.abort(), 300);
    await expect(pending).rejects.toThrow();
    expect(log.lines[0]).toMatch(/Server unreachable.*ECONNREFUSED/);
  });

  it('backs off exponentially with jitter, capped', () => {
    const policy = { baseMs: 500, maxMs: 30_000 };
    for (let n = 0; n < 12; n++) {
      const ceiling = Math.min(30_000, 500 * 2 ** n);
      const wait = backoffMs(n, policy);
      expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
      expect(wait).toBeLessThanOrEqual(ceiling);
    }
  });
});
