/**
 * Requests built from the live OpenAPI document, for the tests that walk every
 * operation (contract fuzzing, permission matrix): the operations, a plausible
 * value for a JSON schema, and concrete ids for the path parameters of the demo
 * fleet's rows.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';

/** The parts of a JSON schema (2020-12, as zod writes it) that these tests read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path of the document, `/api/v1/accounts/{id}`. */
  path: string;
  operationId: string;
  parameters: Parameter[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase() as Operation['method'],
      path,
      operationId: op.operationId,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content['application/json']?.schema,
    })),
  );
}

const types = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/**
 * A value the schema accepts, as plainly as it can be made: the default, the
 * first enum value, the smallest number in range, required properties only.
 * Rules beyond the schema (a valid parent, a known image) are not known here.
 */
export function sampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sampleOf(variants.find((v) => !types(v).includes('null')) ?? variants[0]!);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s) as object));
  const type = types(schema).find((t) => t !== 'null') ?? types(schema)[0];
  switch (type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return Math.min(Math.max(min, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.now() + 30 * 86_400_000).toISOString();
      if (schema.format === 'email') return 'fuzz@example.com';
      return 'fuzz'.padEnd(schema.minLength ?? 0, 'z').slice(0, schema.maxLength ?? 100);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sampleOf(schema.properties?.[key] ?? {})]));
    case 'null':
      return null;
    default:
      return null;
  }
}

/** Ids of real rows that the path parameters of the document name. */
export interface PathIds {
  account: number;
  machine: number;
  site: number;
  task: number;
  template: number;
  /** A draft of the signed-in user. */
  draft: number;
  commitHash: string;
}

/**
 * Concrete ids for the path parameters, from the demo fleet: a visible (not
 * Customer Production) account with machines and sites, one of its machines with
 * a task, a public `general` template and a `launcher` commit (the first values
 * of the `type` and `software` enums). A draft is its author's alone, so the
 * caller makes one.
 */
export async function findPathIds(db: Db): Promise<Omit<PathIds, 'draft'>> {
  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> => {
    const row = (await db.execute(query)).rows[0] as T | undefined;
    if (!row) throw new Error(`no row for ${JSON.stringify(query)}`);
    return row;
  };
  const { account, machine, site } = await one<{ account: number; machine: number; site: number }>(sql`
    select a.id as account, m.id as machine, s.id as site
      from accounts a join machines m on m.account_id = a.id join sites s on s.account_id = a.id
     where a.deleted_at is null and a.class_id in (1, 2, 3) and not m.terminate
     order by a.id, m.id limit 1`);
  const task = await db.execute<{ id: number }>(sql`select id from machine_tasks where machine_id = ${machine} order by id limit 1`);
  const { template } = await one<{ template: number }>(sql`select id as template from templates where is_public and type = 'general' order by id limit 1`);
  const { commitHash } = await one<{ commitHash: string }>(sql`select short_hash as "commitHash" from software_commits where software = 'launcher' order by id limit 1`);
  return { account, machine, site, task: task.rows[0]?.id ?? 1, template, commitHash };
}

/** The value of path parameter `name` of `path` among `ids`; the first enum value for named kinds. */
export function pathValue(path: string, param: Parameter, ids: PathIds): string {
  if (param.schema.enum) return String(param.schema.enum[0]);
  switch (param.name) {
    case 'machineId':
      return String(ids.machine);
    case 'siteId':
      return String(ids.site);
    case 'taskId':
      return String(ids.task);
    case 'hash':
      return ids.commitHash;
    case 'id':
      if (path.startsWith('/api/v1/machines/')) return String(ids.machine);
      if (path.startsWith('/api/v1/template/')) return String(ids.template);
      if (path.startsWith('/api/v1/draft-accounts/')) return String(ids.draft);
      return String(ids.account);
    default:
      return String(sampleOf(param.schema));
  }
}

/** `path` with every `{param}` replaced by `values[param]`, URL-encoded. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
