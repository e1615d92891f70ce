/**
 * SQL of the remote MMAs' credentials (issue 27 point 1; invariants in
 * `mma-agents.schema.ts`): registration tokens made and exchanged once, agents
 * listed with their connection, looked up by their token's hash and revoked.
 * Hashes are SHA-256 hex strings; times are PostgreSQL's `now()`.
 */
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { mmaClasses } from '../mma/mma.schema.js';
import { AGENT_CONNECTED, mmaAgents, mmaRegistrationTokens } from './mma-agents.schema.js';

/** What `operations.worker` holds for an operation a remote MMA runs: `mma-agent:{id}@{host}`; this is its start. */
export const agentWorkerPrefix = (agentId: number) => `mma-agent:${agentId}@`;
/** {@link agentWorkerPrefix} of the agent row `mma_agents` in SQL. */
const agentWorkerPrefixSql = sql`'mma-agent:' || ${mmaAgents.id} || '@'`;

/** Inserts a registration token's hash for class `classId`, valid `ttlSeconds`; answers its expiry. */
export async function insertRegistrationToken(tx: DbOrTx, o: { classId: number; tokenHash: string; createdBy: string; ttlSeconds: number }): Promise<Date> {
  const [row] = await tx
    .insert(mmaRegistrationTokens)
    .values({ classId: o.classId, tokenHash: o.tokenHash, createdBy: o.createdBy, expiresAt: sql`now() + ${o.ttlSeconds} * interval '1 second'` })
    .returning({ expiresAt: mmaRegistrationTokens.expiresAt });
  return row!.expiresAt;
}

/**
 * Marks the registration token of hash `tokenHash` used, if it is unused and
 * not expired (one conditional UPDATE: two exchanges at once cannot both win);
 * answers its class and creator, or undefined.
 */
export async function useRegistrationToken(tx: DbOrTx, tokenHash: string) {
  const [row] = await tx
    .update(mmaRegistrationTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(mmaRegistrationTokens.tokenHash, tokenHash), isNull(mmaRegistrationTokens.usedAt), gt(mmaRegistrationTokens.expiresAt, sql`now()`)))
    .returning({ id: mmaRegistrationTokens.id, classId: mmaRegistrationTokens.classId, createdBy: mmaRegistrationTokens.createdBy });
  return row;
}

/** Inserts an agent (seen now, from `address`) and links the registration token `registrationId` to it; answers its id. */
export async function insertAgent(
  tx: DbOrTx,
  o: { registrationId: number; classId: number; tokenHash: string; tokenHint: string; host: string; version: string; registeredBy: string; address: string },
): Promise<number> {
  const [row] = await tx
    .insert(mmaAgents)
    .values({
      classId: o.classId,
      tokenHash: o.tokenHash,
      tokenHint: o.tokenHint,
      host: o.host,
      version: o.version,
      registeredBy: o.registeredBy,
      lastSeenAt: sql`now()`,
      lastAddress: o.address,
    })
    .returning({ id: mmaAgents.id });
  await tx.update(mmaRegistrationTokens).set({ agentId: row!.id }).where(eq(mmaRegistrationTokens.id, o.registrationId));
  return row!.id;
}

/**
 * The live (not revoked) agent of token hash `tokenHash`, marked seen now from
 * `address`; undefined when there is none. One statement.
 */
export async function touchAgent(db: DbOrTx, tokenHash: string, address: string) {
  const [row] = await db
    .update(mmaAgents)
    .set({ lastSeenAt: sql`now()`, lastAddress: address })
    .where(and(eq(mmaAgents.tokenHash, tokenHash), isNull(mmaAgents.revokedAt)))
    .returning({ id: mmaAgents.id, classId: mmaAgents.classId, host: mmaAgents.host, version: mmaAgents.version });
  return row;
}

/**
 * The agents with their class name, whether each is connected and the
 * operations it runs, by class then id: all of them (at most `limit`), or
 * agent `id` alone.
 */
export async function selectAgents(db: DbOrTx, o: { limit: number; id?: number }) {
  return db
    .select({
      a: mmaAgents,
      className: mmaClasses.name,
      connected: sql<boolean>`${AGENT_CONNECTED}`,
      running: sql<number>`(select count(*)::int from operations o where o.status = 'RUNNING' and starts_with(o.worker, ${agentWorkerPrefixSql}))`,
    })
    .from(mmaAgents)
    .innerJoin(mmaClasses, eq(mmaClasses.id, mmaAgents.classId))
    .where(o.id === undefined ? undefined : eq(mmaAgents.id, o.id))
    .orderBy(asc(mmaAgents.classId), asc(mmaAgents.id))
    .limit(o.limit);
}

/** Agent `id` with its class, locked until the transaction ends; undefined when unknown. */
export async function selectAgentForUpdate(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(mmaAgents).where(eq(mmaAgents.id, id)).for('update');
  return row;
}

/** Revokes agent `id` (by `user`). */
export async function revokeAgent(tx: DbOrTx, id: number, user: string): Promise<void> {
  await tx.update(mmaAgents).set({ revokedAt: sql`now()`, revokedBy: user }).where(eq(mmaAgents.id, id));
}
