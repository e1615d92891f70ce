/**
 * Outgoing email (DESIGN §2 email): nodemailer to `SMTP_URL` when set, otherwise
 * each message is written as an `.eml` file under `DATA_DIR/outbox/` (default
 * `.data/outbox/`), so a demo never needs a mail server and every message can be
 * opened by a mail client.
 *
 * Errors: `send` rejects when the SMTP server refuses the message, cannot be
 * reached, or takes over {@link SMTP_TIMEOUT_MS} to connect, greet or answer, or
 * when the outbox folder cannot be written.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

/** How long the SMTP server may take to connect, greet and answer each command, ms. */
export const SMTP_TIMEOUT_MS = 10_000;

export interface MailMessage {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  messageId: string;
  /** Where it went: the SMTP server, or the `.eml` file written. */
  delivery: 'smtp' | 'outbox';
  path?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; when absent, messages go to `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
  /** The sender, e.g. `Fleet Console <devops@fleet.example>`. */
  from: string;
}

export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) {
    // Bounded: a notification's send must end within its delivery lease (engine/notification-delivery), and a
    // password mail should not hang a request for nodemailer's default minutes.
    const transport = nodemailer.createTransport({ url: opts.smtpUrl, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS });
    return {
      async send(m) {
        const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
        return { messageId: info.messageId, delivery: 'smtp' };
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      await mkdir(opts.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`;
      const path = join(opts.outboxDir, name);
      await writeFile(path, info.message as Buffer);
      return { messageId: info.messageId, delivery: 'outbox', path };
    },
  };
}

/** The mailer of the environment: `SMTP_URL`, else `DATA_DIR/outbox` (DESIGN §4). */
export function mailerFromEnvironment(from: string, env: NodeJS.ProcessEnv = process.env): Mailer {
  return createMailer({ smtpUrl: env.SMTP_URL || undefined, outboxDir: resolve(env.DATA_DIR ?? '.data', 'outbox'), from });
}
