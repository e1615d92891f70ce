/**
 * Walks the live OpenAPI document for the API tests that cover every route without
 * naming it: the operations, the ids each one takes (in its path, query or body,
 * with the kind of row each id names) and a minimal valid body generated from the
 * operation's request schema.
 *
 * Known limitations: ids are recognised by name (`accountId`, `machines`, `{id}`
 * after `/accounts/`, ...) through the two tables below; a new id name needs a
 * line there. Bodies hold the required properties and the ids only; a rule that
 * needs realistic input (a section's current `version`) needs an explicit fixture.
 */

/** The part of a JSON schema (as the zod type provider writes it) the generator reads. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  additionalProperties?: JsonSchema | boolean;
  allOf?: JsonSchema[];
  default?: unknown;
  format?: string;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The documented path, `/api/v1/accounts/{id}`. */
  path: string;
  operationId: string;
  parameters: { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

/** The kinds of row an id names. */
export type RefKind =
  | 'account'
  | 'machine'
  | 'site'
  | 'task'
  | 'draft'
  | 'template'
  | 'commit'
  | 'class'
  | 'operation'
  | 'activity'
  | 'issue'
  | 'componentConfig'
  | 'deployerConfig'
  | 'libraryFile'
  | 'irmnVersion'
  | 'saasImage'
  | 'rollout'
  | 'mmaAgent';

/** One id an operation takes. `many`: a list of ids (a body array, a comma list). */
export interface Ref {
  in: 'path' | 'query' | 'body';
  name: string;
  kind: RefKind;
  many: boolean;
}

/** Ids named for what they name, wherever they appear. */
const KIND_BY_NAME: Record<string, RefKind> = {
  accountId: 'account',
  accountIds: 'account',
  parentId: 'account',
  accounts: 'account',
  machineId: 'machine',
  machines: 'machine',
  machineIds: 'machine',
  siteId: 'site',
  taskId: 'task',
  operationId: 'operation',
  draftAccountId: 'draft',
  classId: 'class',
  classIds: 'class',
  hash: 'commit',
};

/** `id` and `ids` name a row of the collection segment before them (`/accounts/{id}`). */
const KIND_BY_SEGMENT: Record<string, RefKind> = {
  accounts: 'account',
  machines: 'machine',
  sites: 'site',
  tasks: 'task',
  operations: 'operation',
  'user-activities': 'activity',
  'draft-accounts': 'draft',
  issues: 'issue',
  template: 'template',
  'irmn-versions': 'irmnVersion',
  images: 'saasImage',
  // `/library/files/{id}`, and `ids` of `/library/files` and `/library/files/batch`.
  files: 'libraryFile',
  library: 'libraryFile',
  'component-configs': 'componentConfig',
  'deployer-configs': 'deployerConfig',
  rollouts: 'rollout',
  agents: 'mmaAgent',
};

/** The operations of the document, in document order. */
export function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: String(op.operationId),
        parameters: (op.parameters as Operation['parameters'] | undefined) ?? [],
        body: content?.['application/json']?.schema,
      };
    }),
  );
}

/** The literal segments of a path after `/api/v1`, with `{param}` segments kept in place. */
const segments = (path: string) => path.replace(/^\/api\/v1\//, '').split('/');

function kindOf(name: string, op: Operation, where: Ref['in']): RefKind | undefined {
  if (KIND_BY_NAME[name]) return KIND_BY_NAME[name];
  if (name !== 'id' && name !== 'ids') return undefined;
  const segs = segments(op.path);
  if (where !== 'path') return KIND_BY_SEGMENT[segs[0]!];
  const at = segs.indexOf(`{${name}}`);
  const before = segs.slice(0, at).reverse().find((s) => !s.startsWith('{'));
  return before ? KIND_BY_SEGMENT[before] : undefined;
}

/** The variant of a schema a value is generated for: the first that is not null. */
function concrete(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return schema;
  return concrete(options.find((s) => s.type !== 'null') ?? options[0]!);
}

/** Every id the operation takes, found by name in its path, query and top-level body properties. */
export function refsOf(op: Operation): Ref[] {
  const refs: Ref[] = [];
  for (const p of op.parameters) {
    if (p.in === 'header' || p.schema.enum) continue;
    const kind = kindOf(p.name, op, p.in);
    if (kind) refs.push({ in: p.in, name: p.name, kind, many: p.name.endsWith('s') && p.name !== 'hash' });
  }
  const body = op.body && concrete(op.body);
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    const kind = kindOf(name, op, 'body');
    if (kind) refs.push({ in: 'body', name, kind, many: concrete(schema).type === 'array' });
  }
  return refs;
}

let counter = 0;

/**
 * A minimal value valid for `schema`: the required properties of objects, the
 * first enum value, the smallest number at or above 1 within the bounds, a short
 * unique string (an email address for a property named so, an ISO time a day
 * ahead for `date-time`), `true` for booleans.
 */
export function sampleValue(schema: JsonSchema, name = ''): unknown {
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((key) => [key, sampleValue(s.properties?.[key] ?? {}, key)]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleValue(s.items ?? {}, name));
    case 'integer':
    case 'number': {
      const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : 1);
      return Math.min(Math.max(low, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    case 'string': {
      counter += 1;
      if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (/email/i.test(name)) return `pm${counter}@fleet.example`;
      const text = `pm${process.pid}x${counter}`.padEnd(s.minLength ?? 0, 'x');
      return text.slice(0, s.maxLength ?? text.length);
    }
    default:
      return {};
  }
}

/**
 * The request of an operation: the path with its ids and enum values put in, the
 * required query parameters and the ids among the optional ones, and a body with
 * the required properties and every id property. `value(ref)` answers each id,
 * or `undefined` to leave an optional one out.
 */
export function buildRequest(
  op: Operation,
  value: (ref: Ref) => number | string | undefined,
): { url: string; query: Record<string, string>; body: unknown } {
  const refs = refsOf(op);
  const refValue = (where: Ref['in'], name: string) => {
    const ref = refs.find((r) => r.in === where && r.name === name);
    return ref && value(ref);
  };
  let url = op.path;
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    const v = refValue(p.in as Ref['in'], p.name) ?? (p.required || p.in === 'path' ? sampleValue(p.schema, p.name) : undefined);
    if (v === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(v)));
    else if (p.in === 'query') query[p.name] = String(v);
  }
  let body: unknown;
  if (op.body) {
    body = sampleValue(op.body);
    if (body && typeof body === 'object') {
      for (const ref of refs.filter((r) => r.in === 'body')) {
        const v = value(ref);
        if (v !== undefined) (body as Record<string, unknown>)[ref.name] = ref.many ? [v] : v;
      }
    }
  }
  return { url, query, body };
}
