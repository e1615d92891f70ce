/**
 * Security headers and rate limits (issue 9 §5, `src/lib/http-security.ts`):
 * the headers on the console's files, the API and the API docs; 429 problem
 * details with Retry-After past the per-address and the per-user limit, each
 * counted on its own. Apps with low limits of their own share one test database.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { useTestDatabase } from './harness.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from './db-url.js';

// First: its afterAll (dropping the database) runs after the apps closed.
const database = useTestDatabase({ max: 5 });
const apps: FastifyInstance[] = [];

/** A console build stand-in: an index.html and one script, with its compressed copies. */
const webDist = mkdtempSync(join(tmpdir(), 'fleet-web-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
// As the build writes them beside each file (packages/web/vite.config.ts).
const APP_JS = 'console.log("console"); '.repeat(100);
writeFileSync(join(webDist, 'assets/app.js'), APP_JS);
writeFileSync(join(webDist, 'assets/app.js.gz'), gzipSync(APP_JS));
writeFileSync(join(webDist, 'assets/app.js.br'), brotliCompressSync(APP_JS));

async function app(rateLimit: { perUser: number; perAddress: number }) {
  const built = await buildApp({ db: database.db, config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist, rateLimit } });
  await built.ready();
  apps.push(built);
  return built;
}

afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});
afterEach(() => {
  vi.useRealTimers();
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(res: LightMyRequestResponse): Record<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

async function signIn(a: FastifyInstance, username: string, address: string): Promise<string> {
  const res = await a.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password: username }, headers: { 'x-forwarded-for': address } });
  expect(res.statusCode).toBe(200);
  return res.json().accessToken.token;
}

const get = (a: FastifyInstance, url: string, opts: { token?: string; address?: string } = {}) =>
  a.inject({
    method: 'GET',
    url,
    headers: { 'x-forwarded-for': opts.address ?? '10.0.0.1', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
  });

function expectTooManyRequests(res: LightMyRequestResponse, whose: 'address' | 'user') {
  expect(res.statusCode).toBe(429);
  expect(res.headers['content-type']).toContain('application/problem+json');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.json()).toEqual({
    type: 'about:blank',
    title: 'Too Many Requests',
    status: 429,
    detail: `Too many requests from this ${whose}. Try again in ${retryAfter} seconds.`,
  });
}

describe('security headers', () => {
  let a: FastifyInstance;
  beforeAll(async () => {
    a = await app({ perUser: 1000, perAddress: 1000 });
  });

  it('gives the console a policy of scripts from the server only, no framing, and the styles antd injects', async () => {
    for (const url of ['/', '/assets/app.js']) {
      const res = await get(a, url);
      expect(res.statusCode).toBe(200);
      const csp = directives(res);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it("sends the console's files brotli'd or gzip'd as the browser accepts, hashed assets cached for a year, the page revalidated", async () => {
    const asset = (encoding?: string) => a.inject({ method: 'GET', url: '/assets/app.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP_JS);
    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP_JS);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);
    for (const res of [br, gz, plain]) {
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    }
    expect((await get(a, '/')).headers['cache-control']).toBe('no-cache');
  });

  it('sends the same headers on API answers, errors included', async () => {
    for (const url of ['/api/v1/health', '/api/v1/accounts', '/api/v1/nothing-here']) {
      const res = await get(a, url);
      expect(directives(res)['frame-ancestors']).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('sends Strict-Transport-Security only to a request that came over TLS', async () => {
    expect((await get(a, '/api/v1/health')).headers['strict-transport-security']).toBeUndefined();
    const tls = await a.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('serves the API docs page under the same policy', async () => {
    const res = await get(a, '/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(directives(res)['script-src']).toEqual(["'self'"]);
    expect(res.body).not.toMatch(/<script>(?!\s*<\/script>)/);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past the per-address limit, counting refused and anonymous requests, for that address only', async () => {
    const a = await app({ perUser: 1000, perAddress: 5 });
    const token = await signIn(a, 'admin', '10.1.0.9');
    for (let i = 0; i < 3; i++) expect((await get(a, '/api/v1/accounts', { address: '10.1.0.1' })).statusCode).toBe(401);
    expect((await get(a, '/', { address: '10.1.0.1' })).statusCode).toBe(200);
    expect((await get(a, '/api/v1/health', { address: '10.1.0.1' })).statusCode).toBe(200);
    expectTooManyRequests(await get(a, '/api/v1/health', { address: '10.1.0.1' }), 'address');
    // The console's files and a signed-in user's calls from that address are refused too.
    expectTooManyRequests(await get(a, '/', { address: '10.1.0.1' }), 'address');
    expectTooManyRequests(await get(a, '/api/v1/accounts', { address: '10.1.0.1', token }), 'address');
    // Another address is not.
    expect((await get(a, '/api/v1/accounts', { address: '10.1.0.2', token })).statusCode).toBe(200);
  });

  it('counts each signed-in user on their own, from any address, and lets them in again once the window has passed', async () => {
    const a = await app({ perUser: 5, perAddress: 1000 });
    const admin = await signIn(a, 'admin', '10.2.0.1');
    const viewer = await signIn(a, 'viewer', '10.2.0.1');
    for (let i = 0; i < 5; i++) expect((await get(a, '/api/v1/accounts', { address: `10.2.0.${1 + (i % 2)}`, token: admin })).statusCode).toBe(200);
    expectTooManyRequests(await get(a, '/api/v1/accounts', { address: '10.2.0.1', token: admin }), 'user');
    // A new address does not lift the user's limit; a POST is refused before its body is read.
    expectTooManyRequests(await get(a, '/api/v1/accounts', { address: '10.2.0.9', token: admin }), 'user');
    const post = await a.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: { authorization: `Bearer ${admin}`, 'x-forwarded-for': '10.2.0.1' },
      payload: { not: 'read' },
    });
    expectTooManyRequests(post, 'user');
    // The other user at the same address, and anonymous calls, are not limited by it.
    for (let i = 0; i < 5; i++) expect((await get(a, '/api/v1/accounts', { address: '10.2.0.1', token: viewer })).statusCode).toBe(200);
    expect((await get(a, '/api/v1/health', { address: '10.2.0.1' })).statusCode).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await get(a, '/api/v1/accounts', { address: '10.2.0.1', token: admin })).statusCode).toBe(200);
  });
});
