/**
 * The bad values of the contract fuzz test (`contract-fuzz.test.ts`): the kinds
 * of bad value the issue lists, each from a fast-check generator seeded by the
 * field it goes into, bad whole bodies, and the body property paths to put them in.
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-walk.js';

export const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

interface BadValue {
  label: string;
  arb: fc.Arbitrary<unknown>;
}

/** The kinds of bad value the issue lists, each from a generator. */
const BAD_VALUES: BadValue[] = [
  { label: 'integer past 2^31', arb: fc.oneof(fc.constant(2 ** 31), fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER })) },
  { label: 'integer past 2^53', arb: fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 70n }).map((n) => Number(n)) },
  { label: 'negative', arb: fc.oneof(fc.constant(-1), fc.integer({ min: -(2 ** 31), max: -1 })) },
  { label: 'fraction', arb: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)) },
  { label: 'wrong type (boolean)', arb: fc.boolean() },
  { label: '100,000 characters', arb: fc.constantFrom('x', 'é', '9').map((c) => c.repeat(100_000)) },
  { label: 'NUL byte', arb: fc.string({ maxLength: 8 }).map((s) => `${s}\u0000${s}`) },
  { label: 'emoji', arb: fc.constantFrom('🚀', '👩‍👩‍👧‍👦', '🇫🇷', '💥x') },
  { label: 'nested object', arb: fc.oneof(fc.constant(deepObject(200)), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 4 })) },
  { label: 'null', arb: fc.constant(null) },
  { label: 'array', arb: fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 4 }) },
];

/** Bad whole bodies: an empty body, null, an array, a string, a number, a deep nesting. */
export const BAD_BODIES: { label: string; payload: string | undefined }[] = [
  { label: 'empty body', payload: undefined },
  { label: 'body null', payload: 'null' },
  { label: 'body array', payload: '[{"a":1}]' },
  { label: 'body string', payload: '"text"' },
  { label: 'body number', payload: '2147483648' },
  // About 1 MB (the body limit) of nesting: nothing may walk it recursively or copy its path per level.
  { label: 'body deeply nested', payload: `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}` },
  { label: 'body not JSON', payload: '{"a":' },
];

function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** One value of each kind, different for each field (seeded by the field's name). */
export function badValuesFor(field: string): { label: string; value: unknown }[] {
  let seed = SEED;
  for (const ch of field) seed = (seed * 31 + ch.charCodeAt(0)) | 0;
  return BAD_VALUES.map(({ label, arb }) => ({ label, value: fc.sample(arb, { numRuns: 1, seed })[0] }));
}

/** A query string or path value carrying `value` as a client would send it. */
export function asText(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Math.abs(value) >= 2 ** 53) return BigInt(value).toString();
  return JSON.stringify(value);
}

/** Body property paths to fuzz: every property, nested objects and the first item of arrays, to depth 3. */
export function bodyFields(schema: JsonSchema | undefined, base: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (!schema || depth > 3) return [];
  const variant = schema.anyOf?.find((v) => v.properties || v.items) ?? schema;
  const fields: string[][] = [];
  for (const [key, child] of Object.entries(variant.properties ?? {})) {
    const path = [...prefix, key];
    fields.push(path);
    const value = (base as Record<string, unknown> | undefined)?.[key];
    fields.push(...bodyFields(child, value, path, depth + 1));
  }
  if (variant.items && Array.isArray(base) && base.length > 0) fields.push(...bodyFields(variant.items, base[0], [...prefix, '0'], depth + 1));
  return fields;
}

/** `body` with the value at `path` replaced (intermediate objects made as needed). */
export function withValue(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
  return copy;
}
