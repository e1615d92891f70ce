/**
 * How a delivery reaches its channel (issue 28 point 3; `README.md` beside it):
 *
 * - webhook: `POST` of a JSON body ({@link WebhookBody}) with `Content-Type:
 *   application/json`, `X-Fleet-Delivery: <delivery id>`, `X-Fleet-Event: <kind>`
 *   and `X-Fleet-Signature: sha256=<hex HMAC-SHA256 of the raw body with the
 *   channel's secret>` (as GitHub's `X-Hub-Signature-256`);
 * - slack: `POST {text}` to a Slack-compatible incoming webhook, the link in
 *   Slack's `<url|label>` form, with `X-Fleet-Delivery` too;
 * - email: one message through the app's mailer (`lib/mailer.ts`).
 *
 * A send resolves when the receiver took it (HTTP 2xx, or the mailer's answer)
 * and rejects with a short error otherwise (`HTTP 500 Internal Server Error`, a
 * redirect, which is not followed, a connection error, `timed out after 10000
 * ms`; the mailer's SMTP steps are bounded by 10 s each too).
 */
import { createHmac } from 'node:crypto';
import type { Mailer } from '../../lib/mailer.js';
import type { ClaimedDelivery } from './delivery.repository.js';
import type { NotificationMessage } from './messages.js';

/** How long one HTTP send may take, ms. */
export const SEND_TIMEOUT_MS = 10_000;

/** The JSON a webhook receives. */
export interface WebhookBody {
  /** The delivery's id (also `X-Fleet-Delivery`): the same on a retry. */
  deliveryId: number;
  eventId: number;
  event: string;
  occurredAt: string;
  title: string;
  text: string;
  url: string;
  subject: { rolloutId: number | null; wave: number | null; operationId: number | null; machineId: number | null; accountId: number | null; classId: number | null; issueId: number | null };
}

/**
 * Text as Slack shows it literally: `&`, `<` and `>` escaped (Slack's message formatting), so that a machine name
 * or an issue's description cannot mention `<!channel>` or make a link of its own.
 */
export const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `sha256=<hex>`: the `X-Fleet-Signature` of `body` (the exact bytes sent) under `secret`. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<void> {
  let res: Response;
  try {
    // Redirects are not followed: a 3xx would re-send the signed body wherever it points (an address the admin never
    // entered, an internal one); it is a failed attempt, saying where it pointed.
    res = await fetch(url, { method: 'POST', body, redirect: 'manual', headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') throw new Error(`timed out after ${SEND_TIMEOUT_MS} ms`, { cause: error });
    throw new Error(e.cause?.code ?? e.cause?.message ?? e.message, { cause: error });
  }
  // The body is not needed, and is not read: a receiver answering megabytes must not fill the worker's memory.
  await res.body?.cancel().catch(() => undefined);
  if (res.status >= 300 && res.status < 400) throw new Error(`HTTP ${res.status}: redirects are not followed (to ${res.headers.get('location') ?? 'nowhere'})`.slice(0, 300));
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
}

/** Sends one delivery; `secret` is the webhook's opened secret (null for the other kinds). */
export async function sendDelivery(d: ClaimedDelivery, message: NotificationMessage, deps: { mailer: Mailer; secret: string | null }): Promise<void> {
  const common = { 'x-fleet-delivery': String(d.id), 'x-fleet-event': d.kind };
  if (d.channelKind === 'webhook') {
    const body: WebhookBody = {
      deliveryId: d.id,
      eventId: d.eventId,
      event: d.kind,
      occurredAt: d.occurredAt.toISOString(),
      ...message,
      subject: { rolloutId: d.rolloutId, wave: d.wave, operationId: d.operationId, machineId: d.machineId, accountId: d.accountId, classId: d.classId, issueId: d.issueId },
    };
    const raw = JSON.stringify(body);
    if (!deps.secret) throw new Error('The webhook has no signing secret: remove it and add it again');
    await post(d.target, raw, { ...common, 'x-fleet-signature': signatureOf(raw, deps.secret) });
  } else if (d.channelKind === 'slack') {
    const text = [`*${slackEscape(message.title)}*`, slackEscape(message.text), `<${message.url}|Open in Fleet Console>`].filter((line) => line !== '').join('\n');
    await post(d.target, JSON.stringify({ text }), common);
  } else {
    await deps.mailer.send({
      to: { name: d.channelName, address: d.target },
      subject: `[Fleet Console] ${message.title}`,
      text: [message.title, message.text, `Open in Fleet Console: ${message.url}`, `Delivery ${d.id} (event ${d.eventId}, ${d.kind})`].filter((line) => line !== '').join('\n\n'),
    });
  }
}
