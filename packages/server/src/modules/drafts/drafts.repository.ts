/**
 * SQL of draft accounts and of turning one into an account (spec 1 §2 Create
 * account, §4; DESIGN §6): the draft row, and the account, its settings, sites
 * and machines inserted in the caller's transaction (the CreateMachine tasks are
 * queued through the task engine's queue).
 */
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, accountSettings, draftAccounts, machines, sites } from '../../db/schema.js';

export type DraftRow = typeof draftAccounts.$inferSelect;

export async function insertDraft(db: DbOrTx, values: { payload: Record<string, unknown>; planned: Record<string, unknown>; createdBy: number }) {
  const [row] = await db.insert(draftAccounts).values(values).returning({ id: draftAccounts.id });
  return row!.id;
}

/** A draft of `createdBy` (drafts are their author's), locked with `forUpdate`. */
export async function selectDraft(db: DbOrTx, id: number, createdBy: number, forUpdate = false): Promise<DraftRow | undefined> {
  const query = db.select().from(draftAccounts).where(and(eq(draftAccounts.id, id), eq(draftAccounts.createdBy, createdBy)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateDraft(db: DbOrTx, id: number, values: Partial<typeof draftAccounts.$inferInsert>): Promise<void> {
  await db.update(draftAccounts).set(values).where(eq(draftAccounts.id, id));
}

export interface AccountGraph {
  account: typeof accounts.$inferInsert;
  settings: Omit<typeof accountSettings.$inferInsert, 'accountId'>;
  sites: Omit<typeof sites.$inferInsert, 'accountId'>[];
  /** Machines with the URL name of their site (null: no site). */
  machines: (Omit<typeof machines.$inferInsert, 'accountId' | 'siteId'> & { name: string; siteUrlFriendlyName: string | null })[];
}

/** Inserts the account, its settings row, sites and machines. Returns the account id and the machines. */
export async function insertAccountGraph(tx: DbOrTx, graph: AccountGraph): Promise<{ accountId: number; machines: { id: number; name: string }[] }> {
  const [account] = await tx.insert(accounts).values(graph.account).returning({ id: accounts.id });
  const accountId = account!.id;
  await tx.insert(accountSettings).values({ ...graph.settings, accountId });
  const siteRows =
    graph.sites.length > 0
      ? await tx
          .insert(sites)
          .values(graph.sites.map((s) => ({ ...s, accountId })))
          .returning({ id: sites.id, urlFriendlyName: sites.urlFriendlyName })
      : [];
  const siteId = new Map(siteRows.map((s) => [s.urlFriendlyName, s.id]));
  if (graph.machines.length === 0) return { accountId, machines: [] };
  const machineRows = await tx
    .insert(machines)
    .values(graph.machines.map(({ siteUrlFriendlyName, ...m }) => ({ ...m, accountId, siteId: siteUrlFriendlyName ? (siteId.get(siteUrlFriendlyName) ?? null) : null })))
    .returning({ id: machines.id, name: machines.name });
  return { accountId, machines: machineRows };
}
