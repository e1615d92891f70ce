/**
 * The creation email reaches a real SMTP server (smtp-server in the test), or the
 * outbox folder without one (spec 1 §7 send-creation-mail; DESIGN §2 email).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { activities, detail, seededAccountId } from '../../../test/account-fixtures.js';
import { accounts } from '../../db/schema.js';
import { createMailer } from '../../lib/mailer.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let t: TestApp;
let server: SMTPServer;
const received: Received[] = [];
const ids = { staging: 0, cp: 0 };

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refuse.example')) return callback(new Error('Mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  // The app's default mailer reads SMTP_URL when it is built.
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  t = await startTestApp();
  ids.staging = await seededAccountId(t, { classId: 4 });
  ids.cp = await seededAccountId(t, { classId: 5 });
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('POST /accounts/{id}/send-creation-mail', () => {
  it('sends the contact an email with the launcher and site URLs through SMTP, audited', async () => {
    const a = await detail(t, ids.staging);
    const res = await t.call({ method: 'POST', url: `/accounts/${ids.staging}/send-creation-mail`, as: 'operator' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ to: a.contact.email, delivery: 'smtp', messageId: expect.stringMatching(/^<.+>$/) });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual([a.contact.email]);
    expect(mail.from).toBe('devops@fleet.example');
    const raw = mail.raw.replace(/=\r?\n/g, '');
    expect(raw).toContain(`Subject: Your account ${a.name} has been created`);
    expect(raw).toContain(`Launcher: ${a.launcherUrl}`);
    expect(raw).toContain(a.sites[0]!.domainName);
    const [activity] = await activities(t, ids.staging, 'SendCreationMail');
    expect(activity).toMatchObject({ user: 'operator', metadata: { params: { to: a.contact.email, delivery: 'smtp' } } });
  });

  it('answers 502 with the reason when the mail server refuses, 422 without a contact email', async () => {
    const db = t.database.db;
    await db.update(accounts).set({ contactEmail: 'nobody@refuse.example' }).where(eq(accounts.id, ids.staging));
    const refused = await t.call({ method: 'POST', url: `/accounts/${ids.staging}/send-creation-mail`, as: 'admin' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().detail).toContain('Mailbox unavailable');
    await db.update(accounts).set({ contactEmail: '' }).where(eq(accounts.id, ids.staging));
    expect((await t.call({ method: 'POST', url: `/accounts/${ids.staging}/send-creation-mail`, as: 'admin' })).statusCode).toBe(422);
  });

  it('answers 404 for hidden accounts and 403 for viewers', async () => {
    expect((await t.call({ method: 'POST', url: `/accounts/${ids.cp}/send-creation-mail`, as: 'operator' })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: `/accounts/${ids.staging}/send-creation-mail`, as: 'viewer' })).statusCode).toBe(403);
  });
});

describe('the outbox mailer', () => {
  it('writes each message as an .eml file when there is no SMTP server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fleet-outbox-'));
    try {
      const mailer = createMailer({ outboxDir: join(dir, 'outbox'), from: 'Fleet Console <devops@fleet.example>' });
      const sent = await mailer.send({ to: { name: 'Casey', address: 'casey@example.com' }, subject: 'Hello', text: 'Body text\n' });
      expect(sent.delivery).toBe('outbox');
      const eml = await readFile(sent.path!, 'utf8');
      expect(eml).toContain('To: Casey <casey@example.com>');
      expect(eml).toContain('Subject: Hello');
      expect(eml).toContain('Body text');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
