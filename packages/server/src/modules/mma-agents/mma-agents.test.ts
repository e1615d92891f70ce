/**
 * API tests of the remote MMAs' credentials (issue 27 point 1; DESIGN §17):
 * registration tokens (admins only, shown once, stored hashed, audited),
 * their single-use exchange for an MMA authentication token (expired, used,
 * unknown and bad input refused), the MMA protocol's authentication (user
 * tokens refused there, MMA tokens refused on user routes), the agents list
 * with the connection, revocation (admins only, at once, audited, once), and
 * a class switched to `remote`: its operations wait for a connected MMA with
 * the reason said, the worker's engine leaves them alone, and switching back
 * runs them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  CLASS_CUSTOMER_STAGING,
  CLASS_EXPERIMENTAL,
  MMA_REGISTRATION_TOKEN_TTL_S,
  type TMmaAgent,
  type TMmaAgentRegisterResponse,
  type TMmaClass,
  type TMmaRegistrationToken,
  type TOperation,
} from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { claimOperations } from '../../engine/operations/agent-claim.repository.js';
import { selectMachinesNeedingAgent } from '../../engine/operations/agent-pass.repository.js';
import type { AgentFixture } from '../../../test/operation-fixtures.js';
import { startAppBesideAgent } from '../../../test/mma-agent-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const createToken = (classId: number, as = 'admin') => t.call({ method: 'POST', url: `/mma/classes/${classId}/registration-tokens`, as });
const register = (token: string, host = 'mma-1.fleet.example', version = '1.0.0') =>
  t.call({ method: 'POST', url: '/mma-agent/register', body: { token, host, version } });
const whoami = (token: string) => t.call({ method: 'GET', url: '/mma-agent/whoami', token });
const agents = async () => ((await t.call({ method: 'GET', url: '/mma/agents', as: 'viewer' })).json() as { items: TMmaAgent[] }).items;
const lastActivity = async (action: string) =>
  (await t.database.db.execute<{ user_name: string; params: Record<string, unknown> }>(sql`
    select user_name, params from audit_activities where action = ${action} order by id desc limit 1`)).rows[0];

/** A registered MMA of `classId`: its registration answer. */
async function registered(classId = CLASS_EXPERIMENTAL, host = 'mma-1.fleet.example'): Promise<TMmaAgentRegisterResponse> {
  const made = await createToken(classId);
  expect(made.statusCode, made.body).toBe(200);
  const res = await register((made.json() as TMmaRegistrationToken).token, host);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TMmaAgentRegisterResponse;
}

describe('registration tokens', () => {
  it('are made by an admin, shown once, kept as a hash, valid an hour, and audited', async () => {
    const before = Date.now();
    const res = await createToken(CLASS_EXPERIMENTAL);
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json() as TMmaRegistrationToken;
    expect(made.mmaClassId).toBe(CLASS_EXPERIMENTAL);
    expect(made.token).toMatch(/^mmar_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(made.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + MMA_REGISTRATION_TOKEN_TTL_S * 1000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + MMA_REGISTRATION_TOKEN_TTL_S * 1000 + 5_000);
    const { rows } = await t.database.db.execute<{ token_hash: string }>(sql`select token_hash from mma_registration_tokens order by id desc limit 1`);
    expect(rows[0]!.token_hash).toBe(sha256(made.token));
    const stored = JSON.stringify((await t.database.db.execute(sql`select * from mma_registration_tokens`)).rows);
    expect(stored).not.toContain(made.token);
    expect(await lastActivity('CreateMmaRegistrationToken')).toMatchObject({ user_name: 'admin', params: { classId: CLASS_EXPERIMENTAL } });
    expect(JSON.stringify(await lastActivity('CreateMmaRegistrationToken'))).not.toContain(made.token);
  });

  it('are refused to an operator and a viewer (403), for an unknown class (404) and a class id out of bounds (400)', async () => {
    expect((await createToken(CLASS_EXPERIMENTAL, 'operator')).statusCode).toBe(403);
    expect((await createToken(CLASS_EXPERIMENTAL, 'viewer')).statusCode).toBe(403);
    expect((await createToken(999)).statusCode).toBe(404);
    const tooBig = await createToken(2 ** 31);
    expect(tooBig.statusCode, tooBig.body).toBe(400);
    expect(tooBig.json().errors[0].propertyName).toBe('id');
    expect((await t.call({ method: 'POST', url: `/mma/classes/${CLASS_EXPERIMENTAL}/registration-tokens` })).statusCode).toBe(401);
  });
});

describe('POST /mma-agent/register', () => {
  it('exchanges a registration token once for an authentication token kept as a hash, audited by MMA', async () => {
    const made = (await createToken(CLASS_EXPERIMENTAL)).json() as TMmaRegistrationToken;
    const res = await register(made.token, 'build-7.fleet.example', '2.3.1');
    expect(res.statusCode, res.body).toBe(200);
    const agent = res.json() as TMmaAgentRegisterResponse;
    expect(agent).toMatchObject({ mmaClassId: CLASS_EXPERIMENTAL });
    expect(agent.token).toMatch(/^mmat_[A-Za-z0-9_-]{43}$/);
    const { rows } = await t.database.db.execute<{ token_hash: string }>(sql`select token_hash from mma_agents where id = ${agent.id}`);
    expect(rows[0]!.token_hash).toBe(sha256(agent.token));
    expect(await lastActivity('RegisterMmaAgent')).toMatchObject({
      user_name: 'MMA',
      params: { agentId: agent.id, classId: CLASS_EXPERIMENTAL, host: 'build-7.fleet.example', version: '2.3.1', registeredBy: 'admin' },
    });

    const again = await register(made.token, 'other.fleet.example');
    expect(again.statusCode, again.body).toBe(401);
    expect(again.json().detail).toContain('unknown, expired or already used');
    expect((await t.database.db.execute(sql`select 1 from mma_agents where host = 'other.fleet.example'`)).rows).toHaveLength(0);
  });

  it('refuses an expired token and an unknown one (401), and bad input with every field error (400)', async () => {
    const made = (await createToken(CLASS_EXPERIMENTAL)).json() as TMmaRegistrationToken;
    await t.database.db.execute(sql`update mma_registration_tokens set expires_at = now() - interval '1 second' where token_hash = ${sha256(made.token)}`);
    expect((await register(made.token)).statusCode).toBe(401);
    expect((await register('mmar_' + 'x'.repeat(43))).statusCode).toBe(401);
    const bad = await t.call({ method: 'POST', url: '/mma-agent/register', body: { token: 'x'.repeat(101), host: 'not a host!', version: '' } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect((bad.json().errors as { propertyName: string }[]).map((e) => e.propertyName).sort()).toEqual(['host', 'token', 'version']);
  });

  it('lets two exchanges of one token at once make one MMA', async () => {
    const made = (await createToken(CLASS_EXPERIMENTAL)).json() as TMmaRegistrationToken;
    const answers = await Promise.all([register(made.token, 'race-a.fleet.example'), register(made.token, 'race-b.fleet.example')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    const { rows } = await t.database.db.execute(sql`select 1 from mma_agents where host like 'race-%'`);
    expect(rows).toHaveLength(1);
  });
});

describe('the MMA protocol authentication', () => {
  it("answers the MMA its own identity, marks it seen, and refuses a user's token there and an MMA token on user routes", async () => {
    const agent = await registered(CLASS_EXPERIMENTAL, 'whoami.fleet.example');
    const me = await whoami(agent.token);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toEqual({ id: agent.id, mmaClassId: CLASS_EXPERIMENTAL, host: 'whoami.fleet.example', version: '1.0.0' });
    expect((await whoami(await t.login('admin'))).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/mma-agent/whoami' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/mma/classes', token: agent.token })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/mma/agents', token: agent.token })).statusCode).toBe(401);
  });
});

describe('GET /mma/agents and revocation', () => {
  it('lists each MMA with its connection to every user', async () => {
    const agent = await registered(CLASS_EXPERIMENTAL, 'listed.fleet.example');
    const listed = (await agents()).find((a) => a.id === agent.id)!;
    expect(listed).toMatchObject({
      mmaClassId: CLASS_EXPERIMENTAL,
      host: 'listed.fleet.example',
      version: '1.0.0',
      tokenHint: agent.token.slice(5, 13),
      registeredBy: 'admin',
      connected: true,
      runningOperations: 0,
      revokedAt: null,
    });
    expect(listed.lastAddress).toBeTruthy();
    await t.database.db.execute(sql`update mma_agents set last_seen_at = now() - interval '61 seconds' where id = ${agent.id}`);
    expect((await agents()).find((a) => a.id === agent.id)!.connected).toBe(false);
    expect((await whoami(agent.token)).statusCode).toBe(200);
    expect((await agents()).find((a) => a.id === agent.id)!.connected).toBe(true);
  });

  it('revokes a credential at once (admins only, audited, once)', async () => {
    const agent = await registered(CLASS_EXPERIMENTAL, 'revoked.fleet.example');
    const revoke = (id: number, as = 'admin') => t.call({ method: 'POST', url: `/mma/agents/${id}/revoke`, as });
    expect((await revoke(agent.id, 'operator')).statusCode).toBe(403);
    expect((await whoami(agent.token)).statusCode).toBe(200);
    const res = await revoke(agent.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: agent.id, revokedBy: 'admin', connected: false });
    expect((await whoami(agent.token)).statusCode).toBe(401);
    expect(await lastActivity('RevokeMmaAgent')).toMatchObject({ user_name: 'admin', params: { agentId: agent.id, host: 'revoked.fleet.example' } });
    const twice = await revoke(agent.id);
    expect(twice.statusCode, twice.body).toBe(409);
    expect((await revoke(999_999)).statusCode).toBe(404);
  });
});

describe('a class whose MMA instance is remote (the worker runs none of its operations)', () => {
  let f: AgentFixture;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ({ f, app, admin: headers } = await startAppBesideAgent());
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await f.close();
  });

  const setMode = async (mode: 'remote' | 'simulated') => {
    const list = (await app.inject({ method: 'GET', url: '/api/v1/mma/classes', headers })).json() as TMmaClass[];
    const c = list.find((x) => x.id === CLASS_CUSTOMER_STAGING)!;
    const i = c.mmaInstance!;
    const body = { name: c.name, image: c.image, deployerBranch: i.deployerBranch, deployerVersion: i.deployerVer, standby: i.standby, priorityGroup: i.priorityGroup, caaHost: i.caaHost, mode };
    const res = await app.inject({ method: 'PUT', url: `/api/v1/mma/classes/${CLASS_CUSTOMER_STAGING}`, headers, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mmaInstance.mode).toBe(mode);
  };
  const waiting = async (machineId: number, operationId: number) => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/machines/${machineId}/operations`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return ((res.json() as { items: TOperation[] }).items.find((o) => o.id === operationId)!).waiting;
  };

  it('holds its operations until an MMA is connected, says so, and runs them in the worker once switched back', async () => {
    await setMode('remote');
    const machine = await f.machine({ classId: CLASS_CUSTOMER_STAGING });
    const id = await f.enqueue(machine, 'SmokeTest');
    expect(await waiting(machine.id, id)).toMatchObject({
      reason: 'mmaDisconnected',
      message: expect.stringContaining('runs its operations on remote MMAs and none is connected'),
    });

    // An MMA of the class connects: the operation is the MMA's to claim ('starting'), still not the worker's.
    const made = await app.inject({ method: 'POST', url: `/api/v1/mma/classes/${CLASS_CUSTOMER_STAGING}/registration-tokens`, headers });
    const reg = await app.inject({ method: 'POST', url: '/api/v1/mma-agent/register', payload: { token: made.json().token, host: 'staging.fleet.example', version: '1.0.0' } });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(await waiting(machine.id, id)).toMatchObject({ reason: 'starting' });
    // Neither the worker's pass nor its claim takes it.
    expect(await selectMachinesNeedingAgent(f.database.db, { staleMs: 30_000, limit: 10_000 })).not.toContain(machine.id);
    const claims = await claimOperations(f.database.db, { machineIds: [machine.id], worker: 'test', staleMs: 30_000, maxAttempts: 3, panicFailures: 3 });
    expect(claims.claimed).toEqual([]);
    expect((await f.row(id)).status).toBeNull();

    await setMode('simulated');
    expect((await f.settled(id, 10_000)).status).toBe('SUCCESS');
  }, 60_000);
});
