/** SQL of single sign-on: provider identities, started sign-ins and one-time codes (`sso.schema.ts`). */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accessTokens, ssoHandoffs, ssoStates, userIdentities, users } from '../../db/schema.js';

export type SsoStateRow = typeof ssoStates.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/** Keeps a started sign-in until `expiresAt`; removes the expired ones on the way. */
export async function insertState(db: DbOrTx, row: SsoStateRow): Promise<void> {
  await db.delete(ssoStates).where(lt(ssoStates.expiresAt, sql`now()`));
  await db.insert(ssoStates).values(row);
}

/** Deletes the started sign-in of `state` and answers it when it was still live; a second call answers undefined. */
export async function takeState(db: DbOrTx, state: string): Promise<SsoStateRow | undefined> {
  const [row] = await db.delete(ssoStates).where(eq(ssoStates.state, state)).returning();
  return row && row.expiresAt.getTime() > Date.now() ? row : undefined;
}

/** The console user linked to the provider's subject, or undefined. */
export async function findUserByIdentity(db: DbOrTx, issuer: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
  return row?.user;
}

/** Name, email, permissions and groups of a user as the provider's claims say now, and the identity's last sign-in. */
export async function updateFromClaims(
  db: DbOrTx,
  opts: { userId: number; issuer: string; subject: string; name: string; email: string; permissions: string[]; groups: string[] },
): Promise<UserRow> {
  const [user] = await db
    .update(users)
    .set({ name: opts.name, email: opts.email, permissions: opts.permissions, groups: opts.groups })
    .where(eq(users.id, opts.userId))
    .returning();
  await db
    .update(userIdentities)
    .set({ lastSignInAt: sql`now()` })
    .where(and(eq(userIdentities.issuer, opts.issuer), eq(userIdentities.subject, opts.subject)));
  return user!;
}

/** Inserts a user under `username` unless the name is taken (then undefined). */
export async function insertUserIfFree(
  db: DbOrTx,
  user: { username: string; name: string; email: string; passwordHash: string; permissions: string[]; groups: string[] },
): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.username }).returning();
  return row;
}

/** Links the provider's subject to the user; false when another sign-in linked it first. */
export async function insertIdentity(db: DbOrTx, identity: { issuer: string; subject: string; userId: number }): Promise<boolean> {
  const rows = await db.insert(userIdentities).values(identity).onConflictDoNothing().returning({ userId: userIdentities.userId });
  return rows.length > 0;
}

/** Revokes every live access token of the user (a sign-in refused by the provider's groups ends the user's sessions). */
export async function revokeUserTokens(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accessTokens.userId, userId), sql`${accessTokens.revokedAt} is null`));
}

/** Keeps a one-time code's hash for the user and the browser until `expiresAt`; removes the expired ones on the way. */
export async function insertHandoff(db: DbOrTx, row: { codeHash: string; userId: number; browserHash: string; expiresAt: Date }): Promise<void> {
  await db.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, sql`now()`));
  await db.insert(ssoHandoffs).values(row);
}

/**
 * Deletes the one-time code and answers its user when it was still live and
 * made for this browser; another browser's try answers undefined and leaves
 * the code to its own. A second call answers undefined.
 */
export async function takeHandoff(db: DbOrTx, codeHash: string, browserHash: string): Promise<number | undefined> {
  const [row] = await db
    .delete(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, codeHash), eq(ssoHandoffs.browserHash, browserHash), gt(ssoHandoffs.expiresAt, sql`now()`)))
    .returning({ userId: ssoHandoffs.userId });
  return row?.userId;
}

/** Deletes every one-time code of the user not yet exchanged (a refused or disabled user's). */
export async function deleteHandoffsOf(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(ssoHandoffs).where(eq(ssoHandoffs.userId, userId));
}
