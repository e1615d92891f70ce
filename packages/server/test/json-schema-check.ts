/**
 * Whether a value fits a request schema of the live OpenAPI document (JSON
 * Schema 2020-12, as the zod type provider writes it), for the contract fuzz
 * test: a value the server accepts must fit the schema it documents.
 *
 * Reads the keywords the document uses: `type`, `enum`, `const`, `anyOf`,
 * `oneOf`, `allOf`, `minimum`, `maximum`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `minLength`, `maxLength`, `pattern`, `items`,
 * `minItems`, `maxItems`, `properties`, `required`, `additionalProperties`,
 * `maxProperties`, `propertyNames`.
 *
 * Known limitations: `format` is not checked (the document pairs `date-time`
 * with a `pattern`); `oneOf` is read as `anyOf`; `minLength` counts UTF-16 code
 * units as the server's zod schemas do, where JSON Schema counts code points (a
 * text of emoji passes a documented minimum with fewer characters), while
 * `maxLength` counts code points (zod's count is never lower).
 */
import type { JsonSchema } from './openapi-walk.js';

/** The keywords above that {@link JsonSchema} does not name. */
interface FullSchema extends JsonSchema {
  exclusiveMaximum?: number;
  pattern?: string;
  propertyNames?: JsonSchema;
}

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;

/** Why `value` does not fit `schema` (the first reason found, with its path), or null when it fits. */
export function misfit(schema: JsonSchema, value: unknown, at = ''): string | null {
  const s = schema as FullSchema;
  const where = at || 'value';
  const variants = s.anyOf ?? s.oneOf;
  if (variants && variants.every((v) => misfit(v, value, at) !== null)) return `${where} fits none of ${variants.length} variants`;
  for (const part of s.allOf ?? []) {
    const why = misfit(part, value, at);
    if (why) return why;
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) return `${where} is not ${JSON.stringify(s.const)}`;
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return `${where} is not one of the enum`;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const actual = typeOf(value);
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return `${where} is ${actual}, not ${types.join(' or ')}`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `${where} is not finite`;
    if (s.minimum !== undefined && value < s.minimum) return `${where} is below ${s.minimum}`;
    if (s.maximum !== undefined && value > s.maximum) return `${where} is above ${s.maximum}`;
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) return `${where} is not above ${s.exclusiveMinimum}`;
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) return `${where} is not below ${s.exclusiveMaximum}`;
  }
  if (typeof value === 'string') {
    // zod counts UTF-16 code units: at least as many as code points, so only its minimum can pass a shorter text.
    if (s.minLength !== undefined && value.length < s.minLength) return `${where} has fewer than ${s.minLength} characters`;
    if (s.maxLength !== undefined && [...value].length > s.maxLength) return `${where} has more than ${s.maxLength} characters`;
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value)) return `${where} does not match ${s.pattern}`;
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) return `${where} has fewer than ${s.minItems} items`;
    if (s.maxItems !== undefined && value.length > s.maxItems) return `${where} has more than ${s.maxItems} items`;
    if (s.items) {
      for (const [i, item] of value.entries()) {
        const why = misfit(s.items, item, `${where}.${i}`);
        if (why) return why;
      }
    }
  }
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (const key of s.required ?? []) if (!(key in object)) return `${where}.${key} is missing`;
    if (s.maxProperties !== undefined && keys.length > s.maxProperties) return `${where} has more than ${s.maxProperties} properties`;
    for (const key of keys) {
      if (s.propertyNames) {
        const why = misfit(s.propertyNames, key, `${where} key '${key}'`);
        if (why) return why;
      }
      const child = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (child) {
        const why = misfit(child, object[key], `${where}.${key}`);
        if (why) return why;
      } else if (s.additionalProperties === false) return `${where}.${key} is not allowed`;
    }
  }
  return null;
}

/**
 * A path or query parameter's text as the schema reads it: a number for a
 * number's or integer's schema when the text is written as a number, `true` or
 * `false` for a boolean's, an array when the parameter was repeated, else the text.
 */
export function parameterValue(schema: JsonSchema, text: string | string[]): unknown {
  // A parameter given once is a single value, whatever the client held it in.
  if (Array.isArray(text)) return text.length === 1 ? parameterValue(schema, text[0]!) : text;
  const types = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []));
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The schema of the body property at `path` (array items by index), choosing the object or array variant of an `anyOf` as the fuzz test does. */
export function schemaAt(schema: JsonSchema | undefined, path: string[]): JsonSchema | undefined {
  let node = schema;
  for (const key of path) {
    if (!node) return undefined;
    const variant = (node.anyOf ?? node.oneOf)?.find((v) => v.properties || v.items || typeof v.additionalProperties === 'object') ?? node;
    node = /^\d+$/.test(key) && variant.items ? variant.items : (variant.properties?.[key] ?? (typeof variant.additionalProperties === 'object' ? variant.additionalProperties : undefined));
  }
  return node;
}
