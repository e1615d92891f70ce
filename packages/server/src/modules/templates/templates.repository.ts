/**
 * SQL of templates and template accounts (spec 1 §2 Manage Templates, §3 Template).
 */
import { and, asc, eq, isNull, notInArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings, templates, users } from '../../db/schema.js';

export type TemplateRow = typeof templates.$inferSelect & { owner: string | null };

const visibleTo = (userId: number) => or(eq(templates.isPublic, true), eq(templates.ownerId, userId));

/** Templates of `type` the user may see: public ones and their own. */
export async function selectTemplates(db: DbOrTx, type: string, userId: number): Promise<TemplateRow[]> {
  const rows = await db
    .select({ t: templates, owner: users.username })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.ownerId))
    .where(and(eq(templates.type, type), visibleTo(userId)))
    .orderBy(asc(templates.name), asc(templates.id));
  return rows.map((r) => ({ ...r.t, owner: r.owner }));
}

/** One template the user may see, locked with `forUpdate`. */
export async function selectTemplate(db: DbOrTx, type: string, id: number, userId: number, forUpdate = false): Promise<TemplateRow | undefined> {
  const query = db
    .select({ t: templates, owner: users.username })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.ownerId))
    .where(and(eq(templates.id, id), eq(templates.type, type), visibleTo(userId)));
  const [row] = forUpdate ? await query.for('update', { of: templates }) : await query;
  return row ? { ...row.t, owner: row.owner } : undefined;
}

export async function insertTemplate(db: DbOrTx, values: { type: string; name: string; isPublic: boolean; ownerId: number; values: Record<string, unknown> }) {
  const [row] = await db.insert(templates).values(values).returning();
  return row!;
}

export async function updateTemplate(db: DbOrTx, id: number, values: { name: string; isPublic: boolean; values: Record<string, unknown> }) {
  const [row] = await db
    .update(templates)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(templates.id, id))
    .returning();
  return row!;
}

export async function deleteTemplate(db: DbOrTx, id: number): Promise<void> {
  await db.delete(templates).where(eq(templates.id, id));
}

/** Live template accounts (isTemplate) the user may see, with their settings. */
export async function selectTemplateAccounts(db: DbOrTx, hiddenClassIds: number[]) {
  return db
    .select({ account: accounts, settings: accountSettings })
    .from(accounts)
    .leftJoin(accountSettings, eq(accountSettings.accountId, accounts.id))
    .where(
      and(
        eq(accounts.isTemplate, true),
        isNull(accounts.deletedAt),
        hiddenClassIds.length > 0 ? notInArray(accounts.classId, hiddenClassIds) : undefined,
      ),
    )
    .orderBy(asc(accounts.name));
}
