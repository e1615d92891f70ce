/**
 * SQL of the operation agent's lease (DESIGN §12; invariants in `README.md`
 * beside this file): the lease of a RUNNING operation (attempt, heartbeat,
 * worker), its logs and checkpoints, the reads of a claim's machines and of the
 * operations' events, and the catalogue rows a CreateJumpStartAmi writes. The
 * claim is in `agent-claim.repository.ts`, the finish and the anomaly rule in
 * `agent-finish.repository.ts`, the level-driven pass in `agent-pass.repository.ts`.
 *
 * Every write to a RUNNING operation is fenced by its lease:
 * `where status = 'RUNNING' and attempts = <attempt>`. A worker whose operation
 * was resumed elsewhere, timed out, or reset by an operator changes nothing.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TOperation } from '@fleet/contracts';
import type { DbOrTx, Tx } from '../../db/client.js';
import { irmnVersions, machines, operations, saasImages } from '../../db/schema.js';
import { operationJson } from '../../modules/operations/operation-json.js';
import type { EffectMachine } from './effects.js';

/** The user the agent records its own actions as (DESIGN §12). */
export const AGENT_USER = 'MMA';

/** The lease of a RUNNING operation: its id and the attempt that holds it. */
export interface OperationLease {
  operationId: number;
  attempt: number;
}

/** One log line as stored: ISO time (UTC, ms), a space, the text, a newline. */
export const logLine = (text: string, at = new Date()) => `${at.toISOString()} ${text}\n`;

/**
 * Of `text` written at `offset` (characters, as `char_length` counts) of the
 * log column `stream`, the part the stream does not hold yet: a retry's lines
 * already there are not written twice. `offset` must not be past the stream's
 * end (a gap), which the caller refuses.
 */
export const unwrittenPart = (stream: SQL, text: SQL, offset: SQL) => sql`substr(${text}, char_length(${stream}) - ${offset} + 1)`;

const leased = (lease: OperationLease) =>
  and(eq(operations.id, lease.operationId), eq(operations.status, 'RUNNING'), eq(operations.attempts, lease.attempt));

/**
 * What a lease write found: undefined when the lease was lost; else the
 * operation's decision, CANCEL when an operator cancelled it while it runs
 * (the run stops and ends FAILURE 'Cancelled by …', issue 27).
 */
export type HeldLease = { decision: string | null; decidedBy: string | null; decisionReason: string | null } | undefined;

const heldLease = { decision: operations.decision, decidedBy: operations.decidedBy, decisionReason: operations.decisionReason };

/** Renews the lease; undefined when it was lost. */
export async function renewLease(db: DbOrTx, lease: OperationLease): Promise<HeldLease> {
  const [row] = await db.update(operations).set({ heartbeatAt: sql`now()` }).where(leased(lease)).returning(heldLease);
  return row;
}

/** Appends formatted lines to the output and deployer log and renews the lease; undefined when the lease was lost. */
export async function appendLogs(db: DbOrTx, lease: OperationLease, output: string, deployerLog: string): Promise<HeldLease> {
  const [row] = await db
    .update(operations)
    .set({
      output: sql`${operations.output} || ${output}`,
      deployerLog: sql`${operations.deployerLog} || ${deployerLog}`,
      heartbeatAt: sql`now()`,
    })
    .where(leased(lease))
    .returning(heldLease);
  return row;
}

/** Merges checkpoint values into the operation's params; false when the lease was lost. */
export async function mergeOperationParams(db: DbOrTx, lease: OperationLease, patch: Record<string, unknown>): Promise<boolean> {
  const rows = await db
    .update(operations)
    .set({ params: sql`${operations.params} || ${JSON.stringify(patch)}::jsonb`, heartbeatAt: sql`now()` })
    .where(leased(lease))
    .returning({ id: operations.id });
  return rows.length > 0;
}

/** Locks the leased operation's row inside `tx`; false when the lease was lost. */
export async function lockLease(tx: Tx, lease: OperationLease): Promise<boolean> {
  const rows = await tx.select({ id: operations.id }).from(operations).where(leased(lease)).for('update');
  return rows.length > 0;
}

/** Gives up the lease (the agent is stopping): its heartbeat is made stale, so the next agent resumes it at once. */
export async function releaseOperationLease(db: DbOrTx, lease: OperationLease): Promise<void> {
  await db.update(operations).set({ heartbeatAt: new Date(0) }).where(leased(lease));
}

/** The machines effects work on (see {@link EffectMachine}) by id; a machine that does not exist is left out. */
export async function selectEffectMachines(db: DbOrTx, machineIds: number[]): Promise<Map<number, EffectMachine>> {
  if (machineIds.length === 0) return new Map();
  // Aliased SQL: an interpolated column renders unqualified inside a subquery, where it would name the instance's own id.
  const { rows } = await db.execute<EffectMachine & Record<string, unknown>>(sql`
    select m.id, m.name, m.account_id as "accountId", m.class_id as "classId", m.is_launcher as "isLauncher",
      m.is_site_master as "isSiteMaster", m.sample_data as "sampleData", m.sample_data_file as "sampleDataFile",
      (select c.cloud_id from cloud_instances c where c.machine_id = m.id and c.active order by c.id desc limit 1) as "cloudId"
    from machines m where m.id = any(${sql.param(machineIds)}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Operations as events carry them: the TOperation and the class ids deciding who may see it [machine class, account class]. */
export async function selectOperationEvents(db: DbOrTx, ids: number[]): Promise<{ operation: TOperation; classIds: number[] }[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.execute<{ op: TOperation; machineClass: number; accountClass: number }>(sql`
    select ${operationJson({ name: sql`m.name`, failCounter: sql`m.fail_counter` })} as op,
      m.class_id as "machineClass", a.class_id as "accountClass"
    from operations o join machines m on m.id = o.machine_id join accounts a on a.id = m.account_id
    where ${inArray(sql`o.id`, ids)} order by o.id`);
  return rows.map((r) => ({ operation: r.op, classIds: [r.machineClass, r.accountClass] }));
}

/** The machine's current software versions (a jump-start image records them). */
export async function selectCurrentVersions(db: DbOrTx, machineId: number): Promise<Record<string, string>> {
  const [row] = await db.select({ versions: machines.currentVersions }).from(machines).where(eq(machines.id, machineId));
  return row?.versions ?? {};
}

/** The IRMN version's id by name, or undefined. */
export async function selectIrmnVersionId(db: DbOrTx, name: string): Promise<number | undefined> {
  const [row] = await db.select({ id: irmnVersions.id }).from(irmnVersions).where(eq(irmnVersions.name, name));
  return row?.id;
}

/**
 * Registers a jump-start SaaS image for the cloud image unless one exists
 * (idempotent: a retried CreateJumpStartAmi finds the first attempt's row).
 * Answers whether it inserted.
 */
export async function insertJumpStartImage(
  tx: DbOrTx,
  image: { name: string; description: string; region: string; irmnVersionId: number; cloudImage: string; versions: Record<string, string> },
): Promise<boolean> {
  const existing = await tx.select({ id: saasImages.id }).from(saasImages).where(eq(saasImages.cloudImage, image.cloudImage));
  if (existing.length > 0) return false;
  await tx.insert(saasImages).values({
    name: image.name,
    region: image.region,
    description: image.description,
    irmnVersionId: image.irmnVersionId,
    official: false,
    active: true,
    jumpStart: true,
    jumpStartConfig: { versions: image.versions },
    osType: 'Windows',
    cloudImage: image.cloudImage,
  });
  return true;
}
