/**
 * JSON text answers (lib/json-text.ts): sent as they are; checked against the
 * route's response schema outside production, so drift fails the tests.
 */
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSerializerCompiler, jsonText } from './json-text.js';

async function appAnswering(text: string, checkJsonText: boolean) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler({ checkJsonText }));
  app.withTypeProvider<ZodTypeProvider>().get(
    '/page',
    { schema: { response: { 200: z.object({ items: z.array(z.object({ id: z.number() })), totalItems: z.number() }) } } },
    () => jsonText<{ items: { id: number }[]; totalItems: number }>(text),
  );
  app.withTypeProvider<ZodTypeProvider>().get('/object', { schema: { response: { 200: z.object({ id: z.number() }) } } }, () => ({
    id: 1,
    secret: 'dropped by the schema',
  }));
  await app.ready();
  return app;
}

describe('JSON text answers', () => {
  const page = '{"items":[{"id":1}],"totalItems":1}';

  it('sends the text as it is, as JSON', async () => {
    for (const check of [true, false]) {
      const app = await appAnswering(page, check);
      const res = await app.inject('/page');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toBe(page);
      await app.close();
    }
  });

  it('fails a text that drifted from the schema outside production, and sends it in production', async () => {
    const drifted = '{"items":[{"id":"1"}]}';
    const checked = await appAnswering(drifted, true);
    expect((await checked.inject('/page')).statusCode).toBe(500);
    await checked.close();
    const unchecked = await appAnswering(drifted, false);
    expect((await unchecked.inject('/page')).body).toBe(drifted);
    await unchecked.close();
  });

  it('still checks and strips other answers', async () => {
    const app = await appAnswering(page, false);
    expect((await app.inject('/object')).json()).toEqual({ id: 1 });
    await app.close();
  });
});
