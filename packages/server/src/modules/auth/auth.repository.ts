/** SQL of users, access tokens and sign-in attempts. */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accessTokens, loginAttempts, users } from '../../db/schema.js';
import { preparedPerDb } from '../../db/prepared.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByUsername(db: DbOrTx, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.username, username));
  return row;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

const liveTokenQuery = preparedPerDb((db: DbOrTx) =>
  db
    .select({ user: users })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.jti, sql.placeholder('jti')), sql`${accessTokens.revokedAt} is null`, gt(accessTokens.expiresAt, sql`now()`)))
    .prepare('find_user_by_live_token'),
);

/**
 * The user behind a live (unrevoked, unexpired) token, or undefined. Runs on
 * every authenticated request, so it is a named prepared statement: each pooled
 * connection plans it once.
 */
export async function findUserByLiveToken(db: DbOrTx, jti: string): Promise<UserRow | undefined> {
  const [row] = await liveTokenQuery(db).execute({ jti });
  return row?.user;
}

export async function insertToken(db: DbOrTx, t: { jti: string; userId: number; expiresAt: Date }): Promise<void> {
  await db.insert(accessTokens).values(t);
}

export async function revokeToken(db: DbOrTx, jti: string): Promise<void> {
  await db.update(accessTokens).set({ revokedAt: sql`now()` }).where(eq(accessTokens.jti, jti));
}

export async function insertLoginAttempt(db: DbOrTx, a: { username: string; address: string; success: boolean }): Promise<void> {
  await db.insert(loginAttempts).values(a);
}

/**
 * Times of failed attempts of the pair within the last `windowSeconds`, after the
 * pair's last success, newest first.
 */
export async function recentFailures(db: DbOrTx, username: string, address: string, windowSeconds: number): Promise<Date[]> {
  const rows = await db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.username, username),
        eq(loginAttempts.address, address),
        eq(loginAttempts.success, false),
        gt(loginAttempts.at, sql`now() - make_interval(secs => ${windowSeconds})`),
        sql`${loginAttempts.at} > coalesce((select max(s.at) from login_attempts s where s.username = ${username} and s.address = ${address} and s.success), '-infinity')`,
      ),
    )
    .orderBy(desc(loginAttempts.at));
  return rows.map((r) => r.at);
}

export async function updatePasswordHash(db: DbOrTx, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}
