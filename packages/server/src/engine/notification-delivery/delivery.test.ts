/**
 * The notification delivery worker against the real PostgreSQL, a local HTTP
 * receiver and the mail outbox (issue 28 point 3; `README.md`): each channel
 * receives each event once across a worker restart, every webhook's signature
 * verifies, a subscription's account filter holds, and a failing receiver is
 * retried with backoff until its delivery is Failed, a send slower than its
 * lease is not sent again by another worker, and settled events are deleted
 * after their retention.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { NOTIFICATION_EVENT_KINDS } from '@fleet/contracts';
import { useTestDatabase } from '../../../test/harness.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { signatureVerifies, startReceiver, type Receiver } from '../../../test/notification-receiver.js';
import { createMailer, type Mailer } from '../../lib/mailer.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { raiseIssue } from '../issues/raise.js';
import { insertChannel, insertSubscription } from '../../modules/notification-channels/notification-channels.repository.js';
import { startNotificationDelivery, type NotificationDelivery } from './delivery.js';
import type { WebhookBody } from './senders.js';

const database = useTestDatabase({ max: 6 });
const secrets = createSecretBox(TEST_DATA_KEY);
const SECRET = 'a'.repeat(64);
const PUBLIC_URL = 'https://fleet.example.test';
let receiver: Receiver;
let outbox: string;
const running: NotificationDelivery[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  outbox = await mkdtemp(join(tmpdir(), 'fleet-notification-outbox-'));
});
afterAll(async () => {
  for (const worker of running) await worker.stop();
  await receiver.close();
  await rm(outbox, { recursive: true, force: true });
});

function start(opts: Partial<Parameters<typeof startNotificationDelivery>[0]> = {}): NotificationDelivery {
  const worker = startNotificationDelivery({
    db: database.db,
    secrets,
    mailer: createMailer({ outboxDir: outbox, from: 'Fleet Console <devops@fleet.example>' }),
    publicUrl: PUBLIC_URL,
    everyMs: 100,
    ...opts,
  });
  running.push(worker);
  return worker;
}

async function stop(worker: NotificationDelivery): Promise<void> {
  await worker.stop();
  running.splice(running.indexOf(worker), 1);
}

async function channel(kind: 'webhook' | 'slack' | 'email', target: string, filter: { accountId?: number } = {}) {
  const id = await insertChannel(database.db, { name: `${kind} channel`, kind, target, secret: kind === 'webhook' ? secrets.seal(SECRET) : null, createdBy: 'admin' });
  await insertSubscription(database.db, { channelId: id, events: [...NOTIFICATION_EVENT_KINDS], classId: null, accountId: filter.accountId ?? null, createdBy: 'admin' });
  return id;
}

/** One event of each kind, each through the table its trigger watches; answers how many events that makes. */
async function raiseOneOfEach(): Promise<number> {
  const db = database.db;
  const account = await insertAccount(db, { name: 'Notified' });
  const machines = await Promise.all([1, 2, 3].map(() => insertMachine(db, { accountId: account.id })));
  await db.execute(sql`update machines set needs_admin = true where id = ${machines[0]!.id}`);
  await db.execute(sql`
    insert into operations (machine_id, account_id, class_id, type_id, type_name, user_name, timeout_seconds, operation_mode, pending)
    select ${machines[1]!.id}, ${account.id}, 1, id, name, 'admin', timeout_seconds, 1, true from operation_types where machine_class_id = 1 order by id limit 1`);
  await db.execute(sql`update mma_instances set standby = false where class_id = 2`);
  await db.execute(sql`update mma_instances set standby = true where class_id = 2`);
  await raiseIssue(db, { machineId: machines[2]!.id, source: 'probe', description: 'Launcher did not answer', tags: [], content: 'timeout' });
  const { rows } = await db.execute<{ id: number }>(sql`
    insert into rollouts (kind, status, plan, config, created_by, principal)
    values ('SoftwareUpdate', 'Running', '{}'::jsonb, '{}'::jsonb, 'admin', '{}'::jsonb), ('SoftwareUpdate', 'Running', '{}'::jsonb, '{}'::jsonb, 'admin', '{}'::jsonb)
    returning id`);
  await db.execute(sql`update rollouts set status = 'Halted', reason = 'Failures passed the threshold' where id = ${rows[0]!.id}`);
  await db.execute(sql`update rollouts set status = 'Completed' where id = ${rows[1]!.id}`);
  await db.execute(sql`insert into rollout_waves (rollout_id, wave, awaiting_approval, size) values (${rows[0]!.id}, 0, 1, 1)`);
  return 7;
}

const bodies = (path: string) => receiver.requests.filter((r) => r.path === path);

describe('notification delivery', () => {
  it('delivers each event once to each channel across a worker restart, signed and linking back', async () => {
    await channel('webhook', `${receiver.url}/hook`);
    await channel('slack', `${receiver.url}/slack`);
    await channel('email', 'ops@fleet.example');
    const events = await raiseOneOfEach();
    const { rows: kinds } = await database.db.execute<{ kind: string }>(sql`select distinct kind from notification_events`);
    expect(kinds.map((k) => k.kind).sort()).toEqual([...NOTIFICATION_EVENT_KINDS].sort());

    // Slow answers and small batches, so that the first worker is stopped mid-run.
    receiver.delayMs = 150;
    const first = start({ batch: 2 });
    await receiver.waitFor((requests) => requests.length >= 2);
    await stop(first);
    const beforeRestart = receiver.requests.length;
    expect(beforeRestart).toBeLessThan(events * 2);

    const second = start({ batch: 2 });
    await receiver.waitFor((requests) => requests.length >= events * 2);
    await vi.waitFor(async () => expect((await readdir(outbox)).length).toBe(events), { timeout: 15_000 });
    // Nothing is left to send: a further pass claims nothing.
    expect(await second.pass()).toMatchObject({ claimed: 0 });
    expect(receiver.requests.length).toBe(events * 2);

    const hooks = bodies('/hook').map((r) => ({ request: r, body: JSON.parse(r.body) as WebhookBody }));
    expect(new Set(hooks.map((h) => h.body.eventId)).size).toBe(events);
    expect(hooks.map((h) => h.body.event).sort()).toEqual([...NOTIFICATION_EVENT_KINDS].sort());
    for (const { request, body } of hooks) {
      expect(signatureVerifies(request, SECRET)).toBe(true);
      expect(signatureVerifies(request, 'b'.repeat(64))).toBe(false);
      expect(request.headers['x-fleet-delivery']).toBe(String(body.deliveryId));
      expect(body.url.startsWith(`${PUBLIC_URL}/#/`)).toBe(true);
    }
    const link = (event: string) => hooks.find((h) => h.body.event === event)!.body;
    expect(link('MachinePanic').url).toMatch(/#\/account\/edit\/\d+$/);
    expect(link('OperationPendingApproval').url).toBe(`${PUBLIC_URL}/#/operations/${link('OperationPendingApproval').subject.operationId}`);
    expect(link('RolloutHalted')).toMatchObject({ title: expect.stringMatching(/^Rollout \d+ halted$/), text: 'Failures passed the threshold' });
    expect(link('ClassStandby').url).toBe(`${PUBLIC_URL}/#/mma`);
    expect(link('IssueOpened').url).toMatch(/#\/viewer\/issues\?machine=\d+$/);

    const slack = bodies('/slack').map((r) => (JSON.parse(r.body) as { text: string }).text);
    expect(new Set(slack).size).toBe(events);
    expect(slack.every((text) => text.includes(`<${PUBLIC_URL}/#/`))).toBe(true);
    const mails = await Promise.all((await readdir(outbox)).map((f) => readFile(join(outbox, f), 'utf8')));
    expect(mails.every((m) => m.includes('ops@fleet.example') && m.includes(`${PUBLIC_URL}/#/`))).toBe(true);

    const { rows } = await database.db.execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from notification_deliveries group by status`);
    expect(rows).toEqual([{ status: 'Sent', n: events * 3 }]);
    await stop(second);
  });

  it('sends a subscription filtered by account only its account’s events', async () => {
    receiver.delayMs = 0;
    const db = database.db;
    const mine = await insertAccount(db, { name: 'Mine' });
    const other = await insertAccount(db, { name: 'Other' });
    await channel('webhook', `${receiver.url}/filtered`, { accountId: mine.id });
    const machines = [await insertMachine(db, { accountId: mine.id }), await insertMachine(db, { accountId: other.id })];
    await db.execute(sql`update machines set needs_admin = true where id in (${machines[0]!.id}, ${machines[1]!.id})`);
    const worker = start();
    await receiver.waitFor((requests) => requests.some((r) => r.path === '/filtered'));
    await worker.pass();
    const received = bodies('/filtered').map((r) => JSON.parse(r.body) as WebhookBody);
    expect(received.map((b) => [b.event, b.subject.machineId])).toEqual([['MachinePanic', machines[0]!.id]]);
    await stop(worker);
  });

  it('retries a failing receiver with backoff and marks the delivery Failed after its last attempt', async () => {
    receiver.failWith(500);
    const id = await channel('webhook', `${receiver.url}/failing`);
    const { rows } = await database.db.execute<{ id: number }>(sql`
      with e as (insert into notification_events (kind, channel_id, fanned_out_at) values ('Test', ${id}, now()) returning id)
      insert into notification_deliveries (event_id, channel_id) select id, ${id} from e returning id`);
    const deliveryId = Number(rows[0]!.id);
    const worker = start({ maxAttempts: 3, backoffBaseMs: 50, everyMs: 50 });
    await vi.waitFor(
      async () => {
        const { rows: state } = await database.db.execute<{ status: string; attempts: number; lastError: string }>(
          sql`select status, attempts, last_error as "lastError" from notification_deliveries where id = ${deliveryId}`,
        );
        expect(state[0]).toEqual({ status: 'Failed', attempts: 3, lastError: 'HTTP 500 Internal Server Error' });
      },
      { timeout: 15_000, interval: 50 },
    );
    const attempts = bodies('/failing');
    expect(attempts.length).toBe(3);
    expect(new Set(attempts.map((r) => r.headers['x-fleet-delivery']))).toEqual(new Set([String(deliveryId)]));
    receiver.failWith(null);
    await stop(worker);
  });

  it('renews the lease of a send slower than it, so that another worker does not claim and send it again', async () => {
    const id = await channel('email', 'slow@fleet.example');
    const { rows } = await database.db.execute<{ id: number }>(sql`
      with e as (insert into notification_events (kind, channel_id, fanned_out_at) values ('Test', ${id}, now()) returning id)
      insert into notification_deliveries (event_id, channel_id) select id, ${id} from e returning id`);
    const deliveryId = Number(rows[0]!.id);
    // An SMTP server slow at each step: the send takes four leases. The lease is long enough that a renewal
    // (every third of it) delayed by a busy runner still lands in time.
    const LEASE_MS = 600;
    let sends = 0;
    const slow: Mailer = {
      send: async () => {
        sends += 1;
        await new Promise((resolve) => setTimeout(resolve, 4 * LEASE_MS));
        return { messageId: 'slow', delivery: 'outbox' };
      },
    };
    const first = start({ mailer: slow, leaseMs: LEASE_MS, listen: false, everyMs: 3_600_000 });
    await vi.waitFor(() => expect(sends).toBe(1), { timeout: 5_000, interval: 10 });
    const second = start({ mailer: slow, leaseMs: LEASE_MS, listen: false, everyMs: 3_600_000 });
    // Past the claim's own lease: without its renewals the delivery would be claimable again now.
    await new Promise((resolve) => setTimeout(resolve, 1.5 * LEASE_MS));
    expect(await second.pass()).toMatchObject({ claimed: 0 });
    await vi.waitFor(
      async () => {
        const { rows: state } = await database.db.execute<{ status: string; attempts: number }>(
          sql`select status, attempts from notification_deliveries where id = ${deliveryId}`,
        );
        expect(state[0]).toEqual({ status: 'Sent', attempts: 1 });
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(sends).toBe(1);
    await stop(second);
    await stop(first);
  });

  it('deletes events past their retention with their deliveries, but none with a delivery still pending', async () => {
    const db = database.db;
    const id = await channel('webhook', `${receiver.url}/retention`);
    const { rows } = await db.execute<{ id: number; status: string; age: number }>(sql`
      with e as (
        insert into notification_events (kind, channel_id, fanned_out_at, created_at)
        select 'Test', ${id}, now(), now() - make_interval(days => age) from (values (31), (31), (31), (2)) as v(age)
        returning id, created_at
      )
      insert into notification_deliveries (event_id, channel_id, status, next_attempt_at)
      select e.id, ${id}, (array['Sent', 'Failed', 'Pending', 'Sent'])[row_number() over (order by e.id)],
        now() + interval '1 hour'
      from e
      returning event_id::int as id, status, 0 as age`);
    const [sent, failed, pending, recent] = rows.map((r) => r.id);
    const worker = start({ retentionDays: 30, listen: false });
    // Its first pass (at its start, or this one after it) looks.
    await worker.pass();
    const { rows: left } = await db.execute<{ id: number }>(sql`
      select id::int as id from notification_events where id in (${sent}, ${failed}, ${pending}, ${recent}) order by id`);
    expect(left.map((r) => r.id)).toEqual([pending, recent]);
    const { rows: deliveries } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from notification_deliveries where event_id in (${sent}, ${failed})`);
    expect(deliveries[0]!.n).toBe(0);
    // The next pass within pruneEveryMs does not look again: an old settled event raised now stays until then.
    const { rows: later } = await db.execute<{ id: number }>(sql`
      with e as (insert into notification_events (kind, channel_id, fanned_out_at, created_at) values ('Test', ${id}, now(), now() - interval '40 days') returning id)
      insert into notification_deliveries (event_id, channel_id, status) select id, ${id}, 'Sent' from e returning event_id::int as id`);
    expect((await worker.pass()).pruned).toBe(0);
    expect((await db.execute(sql`select id from notification_events where id = ${later[0]!.id}`)).rows).toHaveLength(1);
    await stop(worker);
    // A new worker's first pass looks at once.
    const next = start({ retentionDays: 30, listen: false });
    await next.pass();
    expect((await db.execute(sql`select id from notification_events where id = ${later[0]!.id}`)).rows).toHaveLength(0);
    await stop(next);
  });
});
