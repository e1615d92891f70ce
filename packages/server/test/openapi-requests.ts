/**
 * Concrete requests for the contract fuzz test: ids of the demo fleet's rows for
 * the path parameters of the operations that `openapi-walk.ts` reads from the
 * live OpenAPI document.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { refsOf, sampleValue, type Operation, type RefKind } from './openapi-walk.js';

/** Ids of real rows that the path parameters of the document name. */
export interface PathIds {
  account: number;
  machine: number;
  site: number;
  task: number;
  /** An operation of the machine (1, unknown, when the seed has none). */
  operation: number;
  /** An audit activity of the account. */
  activity: number;
  /** An issue of the machine (1, unknown, when it has none). */
  issue: number;
  /** A library file (the first). */
  libraryFile: number;
  template: number;
  /** A draft of the signed-in user. */
  draft: number;
  commitHash: string;
  /** A definition of each config catalogue. */
  componentConfig: number;
  deployerConfig: number;
  /** The first IRMN version and the first SaaS image (by id). */
  irmnVersion: number;
  saasImage: number;
  /** A registered MMA (issue 27; 1, unknown, when none is). */
  mmaAgent: number;
  /** A rollout (1, unknown, when there is none). */
  rollout: number;
}

/**
 * Concrete ids for the path parameters, from the demo fleet: a visible (not
 * Customer Production) account with machines and sites, one of its machines with
 * a task (and an operation, an audit activity of the account, when it has them), a public `general` template and a `launcher` commit (the first values
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
  const operation = await db.execute<{ id: number }>(sql`select id from operations where machine_id = ${machine} order by id limit 1`);
  const activity = await db.execute<{ id: number }>(
    sql`select activity_id as id from audit_activity_accounts where account_id = ${account} order by activity_id limit 1`,
  );
  const issue = await db.execute<{ id: number }>(sql`select id from issues where machine_id = ${machine} order by id limit 1`);
  const { libraryFile } = await one<{ libraryFile: number }>(sql`select min(id) as "libraryFile" from library_files`);
  const { template } = await one<{ template: number }>(sql`select id as template from templates where is_public and type = 'general' order by id limit 1`);
  const { commitHash } = await one<{ commitHash: string }>(sql`select short_hash as "commitHash" from software_commits where software = 'launcher' order by id limit 1`);
  const { irmnVersion, saasImage } = await one<{ irmnVersion: number; saasImage: number }>(
    sql`select (select min(id) from irmn_versions) as "irmnVersion", (select min(id) from saas_images) as "saasImage"`,
  );
  const { componentConfig } = await one<{ componentConfig: number }>(sql`select min(id) as "componentConfig" from component_configs`);
  const { deployerConfig } = await one<{ deployerConfig: number }>(sql`select min(id) as "deployerConfig" from deployer_configs`);
  const rollout = await db.execute<{ id: number }>(sql`select id from rollouts order by id limit 1`);
  const mmaAgent = await db.execute<{ id: number }>(sql`select id from mma_agents order by id limit 1`);
  return {
    account,
    machine,
    site,
    task: task.rows[0]?.id ?? 1,
    operation: operation.rows[0]?.id ?? 1,
    activity: activity.rows[0]?.id ?? 1,
    issue: issue.rows[0]?.id ?? 1,
    libraryFile,
    template,
    commitHash,
    componentConfig,
    deployerConfig,
    irmnVersion,
    saasImage,
    rollout: rollout.rows[0]?.id ?? 1,
    mmaAgent: mmaAgent.rows[0]?.id ?? 1,
  };
}

/** The id of a kind of row among `ids` (class: Experimental). */
export function idOf(kind: RefKind, ids: PathIds): number | string {
  return kind === 'commit' ? ids.commitHash : kind === 'class' ? 1 : ids[kind];
}

/** The value of each path parameter of `operation`: the row its name stands for, else a valid value (the first enum value). */
export function pathValues(operation: Operation, ids: PathIds): Record<string, string> {
  const refs = refsOf(operation);
  return Object.fromEntries(
    operation.parameters
      .filter((p) => p.in === 'path')
      .map((p) => {
        const ref = refs.find((r) => r.in === 'path' && r.name === p.name);
        return [p.name, String(ref ? idOf(ref.kind, ids) : sampleValue(p.schema, p.name))];
      }),
  );
}

/** `path` with every `{param}` replaced by `values[param]`, URL-encoded. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
