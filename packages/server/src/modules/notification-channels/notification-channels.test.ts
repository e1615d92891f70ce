/**
 * The notification channels API through the real app and PostgreSQL (issue 28
 * point 3): admins only (403 to an operator and a viewer), bad input 400 with
 * field errors, a webhook's secret shown once and stored sealed, a channel edited
 * (its secret kept), subscriptions,
 * audit, 'Send test message' delivered by the worker to a local receiver (the
 * HMAC verifies), and a failing receiver retried and shown failing by
 * `GET /notification-deliveries`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TCreatedNotificationChannel, TNotificationChannel, TNotificationDelivery, TNotificationSubscription } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';
import { activities, fieldErrors } from '../../../test/account-fixtures.js';
import { signatureVerifies, startReceiver, type Receiver } from '../../../test/notification-receiver.js';
import { createMailer } from '../../lib/mailer.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { startNotificationDelivery, type NotificationDelivery } from '../../engine/notification-delivery/delivery.js';

let t: TestApp;
let receiver: Receiver;
let worker: NotificationDelivery | undefined;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver.close();
  await t.close();
});

/** A delivery worker on the app's database that passes only when asked (`pass()`), or every `everyMs`. */
function startWorker(opts: { everyMs?: number; maxAttempts?: number; backoffBaseMs?: number } = {}): NotificationDelivery {
  worker = startNotificationDelivery({
    db: t.database.db,
    secrets: createSecretBox(TEST_DATA_KEY),
    mailer: createMailer({ outboxDir: '/nonexistent', from: 'Fleet Console <devops@fleet.example>' }),
    publicUrl: 'http://localhost:3000',
    listen: false,
    everyMs: opts.everyMs ?? 3_600_000,
    ...opts,
  });
  return worker;
}

async function create(body: unknown): Promise<TCreatedNotificationChannel> {
  const res = await t.call({ method: 'POST', url: '/notification-channels', as: 'admin', body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TCreatedNotificationChannel;
}

async function deliveries(channelId: number): Promise<TNotificationDelivery[]> {
  const res = await t.call({ method: 'GET', url: '/notification-deliveries', as: 'admin', query: { channelId: String(channelId) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TNotificationDelivery[];
}

describe('notification channels', () => {
  it('are for admins only', async () => {
    for (const as of ['operator', 'viewer']) {
      expect((await t.call({ method: 'GET', url: '/notification-channels', as })).statusCode).toBe(403);
      expect((await t.call({ method: 'GET', url: '/notification-deliveries', as })).statusCode).toBe(403);
      const res = await t.call({ method: 'POST', url: '/notification-channels', as, body: { kind: 'slack', name: 'x', url: 'https://hooks.example/x' } });
      expect(res.statusCode).toBe(403);
    }
    const channel = await create({ kind: 'slack', name: 'Ops room', url: 'https://hooks.example/ops' });
    for (const as of ['operator', 'viewer']) {
      expect((await t.call({ method: 'POST', url: `/notification-channels/${channel.id}/test`, as })).statusCode).toBe(403);
      expect((await t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}`, as })).statusCode).toBe(403);
    }
    expect((await t.call({ method: 'GET', url: '/notification-channels' })).statusCode).toBe(401);
  });

  it('answers bad input with 400 and its field errors, never 500', async () => {
    const bad = async (url: string, body: unknown, method: 'POST' | 'DELETE' = 'POST') => {
      const res = await t.call({ method, url, as: 'admin', body });
      expect(res.statusCode, res.body).toBe(400);
      return fieldErrors(res);
    };
    expect(await bad('/notification-channels', { kind: 'webhook', name: 'x', url: 'ftp://files.example/x' })).toContain('url: URL must be an http(s) URL');
    expect(await bad('/notification-channels', { kind: 'webhook', name: 'x', url: `https://a.example/${'a'.repeat(2000)}` })).toContain('url: URL must have at most 2000 characters');
    expect(await bad('/notification-channels', { kind: 'webhook', name: '', url: 'https://a.example/' })).toContain('name: Name is required');
    expect(await bad('/notification-channels', { kind: 'email', name: 'x', address: 'not-an-address' })).toContain('address: Address must be an email address');
    await bad('/notification-channels', { kind: 'pager', name: 'x', url: 'https://a.example/' });
    const channel = await create({ kind: 'email', name: 'On call', address: 'oncall@fleet.example' });
    const subscriptions = `/notification-channels/${channel.id}/subscriptions`;
    expect(await bad(subscriptions, { events: [] })).toContain('events: Choose at least one event');
    await bad(subscriptions, { events: ['Whatever'] });
    expect(await bad(subscriptions, { events: ['MachinePanic'], accountId: 2147483647 })).toContain('accountId: Account 2147483647 does not exist');
    await bad(subscriptions, { events: ['MachinePanic'], classId: 2147483648 });
    await bad('/notification-channels/2147483648/test', undefined);
    await bad(`/notification-channels/${channel.id}/subscriptions/0`, undefined, 'DELETE');
    expect((await t.call({ method: 'POST', url: '/notification-channels/2147483647/test', as: 'admin' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/notification-deliveries', as: 'admin', query: { limit: '201' } })).statusCode).toBe(400);
  });

  it('shows a webhook’s secret once, keeps it sealed, subscribes, unsubscribes and removes, audited', async () => {
    const channel = await create({ kind: 'webhook', name: 'Incident bot', url: 'https://bot.example/fleet' });
    expect(channel.secret).toMatch(/^[0-9a-f]{64}$/);
    const { rows } = await t.database.db.execute<{ secret: string }>(sql`select secret from notification_channels where id = ${channel.id}`);
    expect(rows[0]!.secret).not.toContain(channel.secret);
    expect(createSecretBox(TEST_DATA_KEY).open(rows[0]!.secret)).toBe(channel.secret);

    const res = await t.call({ method: 'POST', url: `/notification-channels/${channel.id}/subscriptions`, as: 'admin', body: { events: ['MachinePanic', 'IssueOpened'], classId: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    const subscription = res.json() as TNotificationSubscription;
    expect(subscription).toMatchObject({ channelId: channel.id, events: ['MachinePanic', 'IssueOpened'], classId: 1, accountId: null, createdBy: 'admin' });

    const list = (await t.call({ method: 'GET', url: '/notification-channels', as: 'admin' })).json() as TNotificationChannel[];
    const listed = list.find((c) => c.id === channel.id)!;
    expect(listed).toMatchObject({ name: 'Incident bot', kind: 'webhook', target: 'https://bot.example/fleet', subscriptions: [subscription] });
    expect(listed).not.toHaveProperty('secret');

    expect((await t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}/subscriptions/${subscription.id}`, as: 'admin' })).statusCode).toBe(200);
    expect((await t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}/subscriptions/${subscription.id}`, as: 'admin' })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}`, as: 'admin' })).statusCode).toBe(200);
    expect((await t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}`, as: 'admin' })).statusCode).toBe(404);

    for (const action of ['AddNotificationChannel', 'AddNotificationSubscription', 'RemoveNotificationSubscription', 'RemoveNotificationChannel']) {
      const found = await activities(t, undefined, action);
      expect(found.some((a) => a.user === 'admin' && a.metadata.params.channelId === channel.id), action).toBe(true);
    }
  });

  it('edits a channel’s name and target, keeping its kind and secret, audited; refuses the wrong target and others', async () => {
    const hook = await create({ kind: 'webhook', name: 'Pager hook', url: 'https://pager.example/a' });
    const mail = await create({ kind: 'email', name: 'Pager mail', address: 'pager@fleet.example' });
    const patch = (id: number, body: unknown, as = 'admin') => t.call({ method: 'PATCH', url: `/notification-channels/${id}`, as, body });
    const sealed = async () => (await t.database.db.execute<{ secret: string }>(sql`select secret from notification_channels where id = ${hook.id}`)).rows[0]!.secret;
    const before = await sealed();

    const res = await patch(hook.id, { name: ' Pager hook (moved) ', url: 'https://pager.example/b' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: hook.id, kind: 'webhook', name: 'Pager hook (moved)', target: 'https://pager.example/b' });
    expect(res.json()).not.toHaveProperty('secret');
    expect(await sealed()).toBe(before);
    const [edited] = await activities(t, undefined, 'EditNotificationChannel');
    expect(edited).toMatchObject({ user: 'admin', metadata: { params: { channelId: hook.id, kind: 'webhook' } } });
    expect(edited!.metadata.changes.map((c) => [c.propertyName, c.oldValue, c.newValue])).toEqual([
      ['name', 'Pager hook', 'Pager hook (moved)'],
      // A URL is audited as its origin only: every user reads the audit trail, and such a URL is often a credential.
      ['target', 'https://pager.example/…', 'https://pager.example/…'],
    ]);
    expect(JSON.stringify(await activities(t, undefined, 'AddNotificationChannel'))).not.toContain('pager.example/a');
    // Changing nothing records nothing.
    expect((await patch(hook.id, { name: 'Pager hook (moved)' })).statusCode).toBe(200);
    expect(await activities(t, undefined, 'EditNotificationChannel')).toHaveLength(1);

    expect((await patch(mail.id, { address: 'oncall@fleet.example' })).json()).toMatchObject({ target: 'oncall@fleet.example' });
    expect(fieldErrors(await patch(mail.id, { url: 'https://pager.example/c' }))).toEqual(['url: An email channel has an address, not a URL']);
    expect(fieldErrors(await patch(hook.id, { address: 'x@fleet.example' }))).toEqual(['address: A webhook channel has a URL, not an address']);
    expect(fieldErrors(await patch(hook.id, { url: 'ftp://pager.example/' }))).toContain('url: URL must be an http(s) URL');
    expect(fieldErrors(await patch(hook.id, { name: '' }))).toContain('name: Name is required');
    expect((await patch(2147483647, { name: 'x' })).statusCode).toBe(404);
    expect((await patch(2147483648, { name: 'x' })).statusCode).toBe(400);
    for (const as of ['operator', 'viewer']) expect((await patch(hook.id, { name: 'Taken over' }, as)).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/notification-channels', as: 'admin' })).json()).toContainEqual(expect.objectContaining({ id: hook.id, name: 'Pager hook (moved)' }));
  });

  it("'Send test message' reaches the receiver signed, and the deliveries show it Sent", async () => {
    const channel = await create({ kind: 'webhook', name: 'Receiver', url: `${receiver.url}/fleet` });
    const res = await t.call({ method: 'POST', url: `/notification-channels/${channel.id}/test`, as: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    const { deliveryId } = res.json() as { deliveryId: number };
    expect(await deliveries(channel.id)).toMatchObject([{ id: deliveryId, event: 'Test', status: 'Pending', attempts: 0, lastError: null }]);

    const w = startWorker();
    await w.pass();
    await receiver.waitFor((requests) => requests.some((r) => r.path === '/fleet'));
    const request = receiver.requests.find((r) => r.path === '/fleet')!;
    expect(signatureVerifies(request, channel.secret!)).toBe(true);
    expect(request.headers['x-fleet-delivery']).toBe(String(deliveryId));
    expect(JSON.parse(request.body)).toMatchObject({ event: 'Test', title: 'Test message from Fleet Console', url: 'http://localhost:3000/#/notifications' });
    expect(await deliveries(channel.id)).toMatchObject([{ id: deliveryId, status: 'Sent', attempts: 1, lastError: null, channelName: 'Receiver' }]);
    await w.stop();
    worker = undefined;
  });

  it('retries a failing receiver and shows the delivery failing, then Failed', async () => {
    receiver.failWith(503);
    const channel = await create({ kind: 'slack', name: 'Broken', url: `${receiver.url}/broken` });
    const { deliveryId } = (await t.call({ method: 'POST', url: `/notification-channels/${channel.id}/test`, as: 'admin' })).json() as { deliveryId: number };
    const w = startWorker({ maxAttempts: 2, backoffBaseMs: 1500 });
    await w.pass();
    const [retrying] = await deliveries(channel.id);
    expect(retrying).toMatchObject({ id: deliveryId, status: 'Pending', attempts: 1, lastError: 'HTTP 503 Service Unavailable' });
    // Not at once: the next attempt waits its backoff (1.5 s here).
    expect(Date.parse(retrying!.nextAttemptAt!)).toBeGreaterThan(Date.now());
    await vi.waitFor(
      async () => {
        await w.pass();
        expect(await deliveries(channel.id)).toMatchObject([{ id: deliveryId, status: 'Failed', attempts: 2, lastError: 'HTTP 503 Service Unavailable', nextAttemptAt: null }]);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(receiver.requests.filter((r) => r.path === '/broken')).toHaveLength(2);
    receiver.failWith(null);
    await w.stop();
    worker = undefined;
  });

  it('removes a channel once when two removes come at once, audited once', async () => {
    const channel = await create({ kind: 'email', name: 'Removed twice', address: 'twice@fleet.example' });
    // The row held meanwhile: both removes read the channel, then wait for each other's delete.
    const { removes } = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from notification_channels where id = ${channel.id} for update`);
      const inFlight = Promise.all([1, 2].map(() => t.call({ method: 'DELETE', url: `/notification-channels/${channel.id}`, as: 'admin' })));
      // Both deletes waiting on the row lock (other test files' databases not counted).
      await vi.waitFor(
        async () => {
          const { rows } = await t.database.db.execute<{ waiting: number }>(
            sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          expect(rows[0]!.waiting).toBe(2);
        },
        { timeout: 10_000, interval: 20 },
      );
      return { removes: inFlight };
    });
    const atOnce = await removes;
    expect(atOnce.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    const removed = (await activities(t, undefined, 'RemoveNotificationChannel')).filter((a) => a.metadata.params.channelId === channel.id);
    expect(removed).toHaveLength(1);
  });

  it('never passes the limit of 100 channels, even with adds at once', async () => {
    const existing = (await t.call({ method: 'GET', url: '/notification-channels', as: 'admin' })).json() as TNotificationChannel[];
    const made: number[] = [];
    for (let n = existing.length; n < 99; n++) made.push((await create({ kind: 'email', name: `Limit ${n}`, address: `limit${n}@fleet.example` })).id);
    const atOnce = await Promise.all(
      [1, 2, 3, 4].map((n) => t.call({ method: 'POST', url: '/notification-channels', as: 'admin', body: { kind: 'email', name: `Race ${n}`, address: `race${n}@fleet.example` } })),
    );
    expect(atOnce.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(atOnce.find((r) => r.statusCode === 409)!.json().detail).toBe('There are already 100 notification channels');
    const all = (await t.call({ method: 'GET', url: '/notification-channels', as: 'admin' })).json() as TNotificationChannel[];
    expect(all).toHaveLength(100);
    for (const id of [...made, atOnce.find((r) => r.statusCode === 200)!.json().id as number]) {
      expect((await t.call({ method: 'DELETE', url: `/notification-channels/${id}`, as: 'admin' })).statusCode).toBe(200);
    }
  });
});
