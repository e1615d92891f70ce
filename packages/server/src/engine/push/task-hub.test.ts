/**
 * The `/taskHub` push channel (DESIGN §7, §9): JWT handshake, events of the
 * machines a user may see, and events raised in a worker reaching the clients of
 * two other API processes through the Postgres adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { ROLLOUT_PROGRESS_EVENT, TASK_EVENTS, TASK_HUB_PATH, type TRolloutProgressEvent, type TTask } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { createSimulatedCloud } from '../cloud/simulated.js';
import { createTaskEngine } from '../tasks/engine.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';
import { createTaskEvents, type TaskEvent } from './events.js';
import { createTaskHub, type TaskHub } from './task-hub.js';

let t: TestApp;
let hub: TaskHub;
let url = '';
const hubs: TaskHub[] = [];
const servers: HttpServer[] = [];
const pools: pg.Pool[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  hub = createTaskHub({ server: t.app.server, events: t.app.deps.events, authenticate: (token) => t.app.services.auth.authenticate(token) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const h of [hub, ...hubs]) await h.close();
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const p of pools) await p.end();
  await t.close();
});

/** A connected client of the hub at `base`, recording every task event. */
async function client(base: string, token: string | undefined) {
  const received: { name: string; task: TTask }[] = [];
  const socket = connect(base, { path: TASK_HUB_PATH, auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  for (const name of TASK_EVENTS) socket.on(name, (task: TTask) => received.push({ name, task }));
  const outcome = await new Promise<string>((resolve) => {
    socket.on('connect', () => resolve('connected'));
    socket.on('connect_error', (err) => resolve(err.message));
  });
  return { socket, received, outcome };
}

const token = (user: string) => t.login(user);

describe('handshake', () => {
  it('refuses a client without a token or with a bad one', async () => {
    expect((await client(url, undefined)).outcome).toBe('unauthorized');
    expect((await client(url, 'not-a-jwt')).outcome).toBe('unauthorized');
  });

  it('refuses a logged-out token', async () => {
    const revoked = await token('viewer');
    await t.call({ method: 'POST', url: '/auth/logout', token: revoked });
    expect((await client(url, revoked)).outcome).toBe('unauthorized');
  });
});

describe('events', () => {
  it('sends RolloutProgress to users with write, a Customer Production rollout only to the group', async () => {
    const clients = await Promise.all(['admin', 'operator', 'viewer'].map(async (user) => client(url, await token(user))));
    const got = clients.map((c) => {
      const ids: number[] = [];
      c.socket.on(ROLLOUT_PROGRESS_EVENT, (e: TRolloutProgressEvent) => ids.push(e.rolloutId));
      return ids;
    });
    const counts = { Pending: 1, Deploying: 0, AwaitingApproval: 0, Succeeded: 0, Failed: 0, Skipped: 0, NotApplied: 0 };
    t.app.deps.events.emit({ name: 'RolloutProgress', rollout: { rolloutId: 901, status: 'Running', currentWave: 0, counts }, customerProduction: false });
    t.app.deps.events.emit({ name: 'RolloutProgress', rollout: { rolloutId: 902, status: 'Running', currentWave: 0, counts }, customerProduction: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual([[901, 902], [901], []]);
    for (const c of clients) c.socket.disconnect();
  });

  it('a client gets the events of the machines it may see, and only those', async () => {
    const admin = await client(url, await token('admin'));
    const operator = await client(url, await token('operator'));
    const viewer = await client(url, await token('viewer'));
    expect([admin.outcome, operator.outcome, viewer.outcome]).toEqual(['connected', 'connected', 'connected']);

    const testing = await insertAccount(t.database.db, { name: 'Hub Testing', classId: 2 });
    const production = await insertAccount(t.database.db, { name: 'Hub Production', classId: 5 });
    const open = await insertMachine(t.database.db, { accountId: testing.id, classId: 2 });
    const secret = await insertMachine(t.database.db, { accountId: production.id, classId: 5 });
    const movedIn = await insertMachine(t.database.db, { accountId: testing.id, classId: 5 });

    const queue = async (id: number) => (await t.call({ method: 'POST', url: `/machines/${id}/stop`, as: 'admin' })).json() as TTask;
    const [a, b, c] = [await queue(open.id), await queue(secret.id), await queue(movedIn.id)];
    await expect.poll(() => admin.received.length).toBe(3);
    expect(admin.received.map((e) => [e.name, e.task.id])).toEqual([
      ['TaskQueued', a.id],
      ['TaskQueued', b.id],
      ['TaskQueued', c.id],
    ]);
    expect(admin.received[0]!.task).toEqual(a);
    await expect.poll(() => viewer.received.length).toBe(1);
    expect(operator.received.map((e) => e.task.id)).toEqual([a.id]);
    expect(viewer.received.map((e) => e.task.id)).toEqual([a.id]);
  });
});

describe('several processes', () => {
  it('events raised in a worker reach clients of two API processes (Postgres adapter)', async () => {
    const authenticate = (tk: string) => t.app.services.auth.authenticate(tk);
    const pool = () => {
      const p = new pg.Pool({ connectionString: t.database.pool.options.connectionString, max: 3 });
      pools.push(p);
      return p;
    };
    // Two API processes: each its own HTTP server, hub, events and pool.
    const apis = [];
    for (let i = 0; i < 2; i++) {
      const server = createServer();
      servers.push(server);
      const h = createTaskHub({ server, events: createTaskEvents(), authenticate, pool: pool() });
      hubs.push(h);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      apis.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    // A worker: no HTTP server, its own events, the task engine on them.
    const workerEvents = createTaskEvents();
    hubs.push(createTaskHub({ events: workerEvents, pool: pool() }));
    const admin = await token('admin');
    const [one, two] = [await client(apis[0]!, admin), await client(apis[1]!, admin)];
    expect([one.outcome, two.outcome]).toEqual(['connected', 'connected']);

    // The adapter's LISTEN connections come up asynchronously: raise until delivered.
    const probe = (id: number): TaskEvent => ({
      name: 'TaskProgress',
      classIds: [1, 1],
      task: { id, machineId: 1, accountId: 1, type: 'StartMachine', status: 'Running', description: 'probe', progress: 50, queuedAt: new Date().toISOString(), startedAt: null, completedAt: null, error: null },
    });
    for (let id = -1; one.received.length === 0 || two.received.length === 0; id--) {
      if (id < -50) throw new Error('no event crossed the adapter');
      workerEvents.emit(probe(id));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(one.received[0]).toMatchObject({ name: 'TaskProgress', task: { description: 'probe' } });

    // A real task run by the worker's engine.
    const account = await insertAccount(t.database.db, { name: 'Hub Worker', classId: 1 });
    const m = await insertMachine(t.database.db, { accountId: account.id, classId: 1, instanceTypeId: 2 });
    const cloud = createSimulatedCloud({ db: t.database.db, delayMs: 0 });
    await cloud.launch({ machineId: m.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `hub-${m.id}` });
    const engine = createTaskEngine({ db: t.database.db, cloud, events: workerEvents, secrets: createSecretBox(TEST_DATA_KEY), workers: 1, pollingIntervalSeconds: 0.5 });
    await engine.start();
    try {
      const task = (await t.call({ method: 'POST', url: `/machines/${m.id}/stop`, as: 'admin' })).json() as TTask;
      for (const c of [one, two]) {
        await expect.poll(() => c.received.find((e) => e.task.id === task.id && e.name === 'TaskFinished')?.task.status, { timeout: 10_000 }).toBe('Completed');
        expect(c.received.filter((e) => e.task.id === task.id).map((e) => e.name)).toContain('TaskStarted');
      }
    } finally {
      await engine.stop();
    }
  });
});
