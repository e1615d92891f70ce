import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const login = (username: string, password: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress });

describe('POST /auth/login', () => {
  it('issues a token whose claims carry name, email, permissions and groups as comma lists, exp and jti', async () => {
    const res = await login('admin', 'admin');
    expect(res.statusCode).toBe(200);
    const { accessToken } = res.json();
    const claims = decodeJwt(accessToken.token);
    expect(claims).toMatchObject({ name: 'Ada Admin', email: 'admin@fleet.example', permissions: 'write', groups: 'CustomerProductionAccess' });
    expect(typeof claims.jti).toBe('string');
    expect(claims.exp! * 1000).toBe(new Date(accessToken.expiresAt).getTime());
  });

  it('answers 401 problem details for a wrong password and for an unknown user', async () => {
    for (const [u, p] of [['admin', 'nope'], ['ghost', 'ghost']] as const) {
      const res = await login(u, p, '10.0.0.2');
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 401, title: 'Unauthorized', detail: 'Wrong username or password' });
    }
  });

  it('names every missing field with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: {} });
    expect(res.statusCode).toBe(400);
    const names = res.json().errors.map((e: { propertyName: string }) => e.propertyName).sort();
    expect(names).toEqual(['password', 'username']);
  });

  it('throttles a username and address pair after 5 failures within a minute, for that pair only', async () => {
    for (let i = 0; i < 5; i++) expect((await login('operator', 'bad', '10.9.9.9')).statusCode).toBe(401);
    const locked = await login('operator', 'operator', '10.9.9.9');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await login('operator', 'operator', '10.9.9.8')).statusCode).toBe(200);
  });

  it('audits every sign-in attempt', async () => {
    await login('viewer', 'wrong', '10.1.1.1');
    await login('viewer', 'viewer', '10.1.1.1');
    const res = await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { limit: '50', signIns: 'true' } });
    const mine = res.json().filter((a: { user: string }) => a.user === 'viewer');
    expect(mine.map((a: { action: string }) => a.action)).toEqual(expect.arrayContaining(['Login', 'LoginFailed']));
    expect(mine.find((a: { action: string }) => a.action === 'LoginFailed').metadata.params).toMatchObject({ address: '10.1.1.1' });
  });
});

describe('the server authorises by the current user, not the token', () => {
  it('refuses a revoked token after logout', async () => {
    const token = await t.login('operator');
    expect((await t.call({ method: 'GET', url: '/user/me', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'POST', url: '/auth/logout', token })).statusCode).toBe(200);
    const after = await t.call({ method: 'GET', url: '/user/me', token });
    expect(after.statusCode).toBe(401);
  });

  it('applies a revoked permission and a disabled user on the next request', async () => {
    const [u] = await t.database.db
      .insert(users)
      .values({ username: 'temp', name: 'Temp', email: 't@x', passwordHash: (await import('@node-rs/argon2')).hashSync('temppass'), permissions: ['write'] })
      .returning();
    const token = await t.login('temp', 'temppass');
    const first = await t.call({ method: 'DELETE', url: '/accounts/999999', token });
    expect(first.statusCode).toBe(404);
    await t.database.db.update(users).set({ permissions: [] }).where(eq(users.id, u!.id));
    expect((await t.call({ method: 'DELETE', url: '/accounts/999999', token })).statusCode).toBe(403);
    await t.database.db.update(users).set({ disabled: true }).where(eq(users.id, u!.id));
    expect((await t.call({ method: 'GET', url: '/user/me', token })).statusCode).toBe(401);
  });

  it('answers 401 without a token, with a malformed token and with an expired one', async () => {
    expect((await t.call({ method: 'GET', url: '/user/me' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/user/me', token: 'not.a.jwt' })).statusCode).toBe(401);
    const short = await startTestApp({ tokenLifetimeSeconds: 1 });
    try {
      const token = await short.login('viewer');
      await new Promise((r) => setTimeout(r, 2100));
      expect((await short.call({ method: 'GET', url: '/user/me', token })).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('GET /user/me and PUT /user/password', () => {
  it('returns the user with roles, permissions and groups as lists', async () => {
    const res = await t.call({ method: 'GET', url: '/user/me', as: 'viewer' });
    expect(res.json()).toEqual({ name: 'Vera Viewer', email: 'viewer@fleet.example', avatar: null, roles: ['viewer'], permissions: [], groups: [] });
    const operator = (await t.call({ method: 'GET', url: '/user/me', as: 'operator' })).json();
    expect(operator).toMatchObject({ roles: ['operator'], permissions: ['write'], groups: [] });
    const admin = (await t.call({ method: 'GET', url: '/user/me', as: 'admin' })).json();
    expect(admin).toMatchObject({ roles: ['admin'], permissions: ['write'], groups: ['CustomerProductionAccess'] });
  });

  it('derives the roles from the permissions and groups at each request', async () => {
    const db = t.database.db;
    const token = await t.login('viewer');
    const roles = async () => (await t.call({ method: 'GET', url: '/user/me', token })).json().roles;
    try {
      await db.update(users).set({ permissions: ['write'] }).where(eq(users.username, 'viewer'));
      expect(await roles()).toEqual(['operator']);
      await db.update(users).set({ permissions: ['admin'] }).where(eq(users.username, 'viewer'));
      expect(await roles()).toEqual(['admin']);
      // The group alone writes nothing: still a viewer.
      await db.update(users).set({ permissions: [], groups: ['CustomerProductionAccess'] }).where(eq(users.username, 'viewer'));
      expect(await roles()).toEqual(['viewer']);
    } finally {
      await db.update(users).set({ permissions: [], groups: [] }).where(eq(users.username, 'viewer'));
    }
  });

  it('changes the password only with the right current one', async () => {
    const token = await t.login('viewer');
    const wrong = await t.call({ method: 'PUT', url: '/user/password', token, body: { currentPassword: 'x', newPassword: 'longenough' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].propertyName).toBe('currentPassword');
    const short = await t.call({ method: 'PUT', url: '/user/password', token, body: { currentPassword: 'viewer', newPassword: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors[0].propertyName).toBe('newPassword');
    const ok = await t.call({ method: 'PUT', url: '/user/password', token, body: { currentPassword: 'viewer', newPassword: 'viewer-new-pass' } });
    expect(ok.statusCode).toBe(200);
    expect((await login('viewer', 'viewer-new-pass', '10.3.3.3')).statusCode).toBe(200);
    expect((await login('viewer', 'viewer', '10.3.3.3')).statusCode).toBe(401);
  });
});
