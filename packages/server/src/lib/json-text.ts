/**
 * Answers that arrive already written as JSON (issue 9 "The slow paths").
 *
 * A list page already written as JSON text (the machines page,
 * `machines-page.repository.ts`, written by one `JSON.stringify` of objects typed
 * by the contract) is sent as it comes: checking it against the route's
 * response schema with zod and writing it out again would cost more than the
 * page itself. The route handler returns `jsonText(text)`, typed as
 * the route's answer; the serializer compiler below sends the text.
 *
 * Outside production (development, the tests) the serializer still parses the
 * text and checks it against the route's schema, so a statement that drifts
 * from the contract fails the tests as any other answer would.
 */
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { ZodType } from 'zod';

/** JSON text to be sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * `text` (JSON of type T) as a handler's answer: typed as T for the route's type
 * provider, sent as it is by {@link createSerializerCompiler}.
 */
export function jsonText<T>(text: string): T {
  return new JsonText(text) as unknown as T;
}

/**
 * The zod serializer of fastify-type-provider-zod (checks the answer against the
 * route's response schema, then `JSON.stringify`), except for {@link JsonText}
 * answers: those are sent as they are, and checked too unless `checkJsonText`
 * is false (production).
 */
export function createSerializerCompiler(opts: { checkJsonText: boolean }): FastifySerializerCompiler<ZodType> {
  return (route) => {
    const serialize = zodSerializerCompiler(route);
    return (data: unknown) => {
      if (!(data instanceof JsonText)) return serialize(data);
      if (opts.checkJsonText) serialize(JSON.parse(data.text));
      return data.text;
    };
  };
}
