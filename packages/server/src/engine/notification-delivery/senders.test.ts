/**
 * How a delivery is sent (`senders.ts`, issue 28 point 3) against a local
 * HTTP server: a redirect is a failed attempt and is not followed (the signed
 * body never reaches where it pointed); a 2xx is taken without its body being
 * read; a webhook without a secret is not sent
 * unsigned; Slack text is escaped so that fleet data cannot mention a channel
 * or make a link.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../lib/mailer.js';
import type { ClaimedDelivery } from './delivery.repository.js';
import { sendDelivery, slackEscape } from './senders.js';

let server: Server;
let base: string;
const hits: { path: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/endless') {
        // A 2xx whose body never ends: the sender must not wait for it (nor hold it in memory).
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void res.write(Buffer.alloc(64 * 1024));
      }
      if (req.url === '/moved') {
        res.writeHead(307, { location: `${base}/elsewhere` });
        return res.end();
      }
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const mailer: Mailer = { send: async () => ({ messageId: 'x', delivery: 'outbox' }) };
const message = { title: 'Machine <!channel> in Panic', text: 'Issue: <https://evil.example|click> & more', url: 'https://fleet.example/#/mma' };
const delivery = (over: Partial<ClaimedDelivery>): ClaimedDelivery =>
  ({ id: 9, attempts: 1, channelId: 1, channelName: 'c', channelKind: 'webhook', target: `${base}/hook`, secret: null, eventId: 3, kind: 'MachinePanic', occurredAt: new Date(), ...over }) as ClaimedDelivery;

describe('sending a delivery', () => {
  it('fails an attempt on a redirect and does not follow it', async () => {
    const error = await sendDelivery(delivery({ target: `${base}/moved` }), message, { mailer, secret: 'a'.repeat(64) }).catch((e: Error) => e);
    expect((error as Error).message).toBe(`HTTP 307: redirects are not followed (to ${base}/elsewhere)`);
    expect(hits.map((h) => h.path)).not.toContain('/elsewhere');
  });

  it('takes a 2xx answer without reading its body', async () => {
    const started = performance.now();
    await sendDelivery(delivery({ target: `${base}/endless` }), message, { mailer, secret: 'a'.repeat(64) });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses to send a webhook without its signing secret', async () => {
    const before = hits.length;
    await expect(sendDelivery(delivery({}), message, { mailer, secret: null })).rejects.toThrow('The webhook has no signing secret: remove it and add it again');
    expect(hits.length).toBe(before);
  });

  it("escapes Slack's formatting in the fleet's text, keeping its own link", async () => {
    expect(slackEscape('<!channel> & <a|b>')).toBe('&lt;!channel&gt; &amp; &lt;a|b&gt;');
    await sendDelivery(delivery({ channelKind: 'slack', target: `${base}/slack` }), message, { mailer, secret: null });
    const { text } = JSON.parse(hits.find((h) => h.path === '/slack')!.body) as { text: string };
    expect(text).toBe(
      '*Machine &lt;!channel&gt; in Panic*\nIssue: &lt;https://evil.example|click&gt; &amp; more\n<https://fleet.example/#/mma|Open in Fleet Console>',
    );
  });
});
