/**
 * SQL of the issue calls (spec 2 §2.5, §7 Issues; DESIGN §14): pages of issues,
 * one issue, its logs, and the Resolved flag. Issues are written by the engine
 * (`engine/issues/raise.ts`); here they are read and resolved.
 *
 * Visibility (DESIGN §5): an issue is visible when neither its machine's class
 * nor its account's class is hidden. Issues of deleted machines stay visible
 * in `GET /issues` (the viewer is a history, as the Operations viewer is).
 */
import { and, arrayContains, count, desc, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import type { TIssue, TIssueLog, TIssueSource } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import { accounts, issueLogs, issues, machines } from '../../db/schema.js';

export interface IssueFilter {
  hiddenClassIds: number[];
  machineId?: number;
  /** The issue has every one of these tags. */
  tags?: string[];
}

function where(f: IssueFilter): SQL | undefined {
  return and(
    f.hiddenClassIds.length > 0 ? notInArray(machines.classId, f.hiddenClassIds) : undefined,
    f.hiddenClassIds.length > 0 ? notInArray(accounts.classId, f.hiddenClassIds) : undefined,
    f.machineId !== undefined ? eq(issues.machineId, f.machineId) : undefined,
    f.tags && f.tags.length > 0 ? arrayContains(issues.tags, f.tags) : undefined,
  );
}

const columns = {
  id: issues.id,
  machineId: issues.machineId,
  machineName: machines.name,
  source: issues.source,
  description: issues.description,
  tags: issues.tags,
  count: issues.count,
  firstOccurrenceTime: issues.firstOccurrenceTime,
  lastOccurrenceTime: issues.lastOccurrenceTime,
  isResolved: issues.isResolved,
  logCount: sql<number>`(select count(*)::int from issue_logs l where l.issue_id = ${issues.id})`,
};

/** A row as `columns` reads it. */
interface IssueRow {
  id: number;
  machineId: number;
  machineName: string;
  source: string;
  description: string;
  tags: string[];
  count: number;
  firstOccurrenceTime: Date;
  lastOccurrenceTime: Date;
  isResolved: boolean;
  logCount: number;
}

function toIssue(r: IssueRow): TIssue {
  return {
    id: r.id,
    machineId: r.machineId,
    machineName: r.machineName,
    source: r.source as TIssueSource,
    description: r.description,
    tags: r.tags,
    count: r.count,
    firstOccurrenceTime: r.firstOccurrenceTime.toISOString(),
    lastOccurrenceTime: r.lastOccurrenceTime.toISOString(),
    isResolved: r.isResolved,
    logCount: Number(r.logCount),
  };
}

/** A page of visible issues matching the filter, newest last occurrence first (then highest id), with the total. */
export async function selectIssuePage(
  db: DbOrTx,
  f: IssueFilter & { startIndex: number; limit: number },
): Promise<{ items: TIssue[]; totalItems: number }> {
  const filter = where(f);
  const rows = await db
    .select(columns)
    .from(issues)
    .innerJoin(machines, eq(machines.id, issues.machineId))
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(filter)
    .orderBy(desc(issues.lastOccurrenceTime), desc(issues.id))
    .offset(f.startIndex)
    .limit(f.limit);
  let totalItems = f.startIndex + rows.length;
  // A short page that is not empty ends the list: its total needs no count.
  if (rows.length === f.limit || (rows.length === 0 && f.startIndex > 0)) {
    const [total] = await db
      .select({ n: count() })
      .from(issues)
      .innerJoin(machines, eq(machines.id, issues.machineId))
      .innerJoin(accounts, eq(accounts.id, machines.accountId))
      .where(filter);
    totalItems = total?.n ?? 0;
  }
  return { items: rows.map(toIssue), totalItems };
}

/** One visible issue with its machine's account (for the audit), or undefined. `forUpdate` locks the issue row. */
export async function findVisibleIssue(db: DbOrTx, q: { id: number; hiddenClassIds: number[]; forUpdate?: boolean }) {
  const query = db
    .select({ ...columns, account: { id: accounts.id, name: accounts.name, classId: accounts.classId } })
    .from(issues)
    .innerJoin(machines, eq(machines.id, issues.machineId))
    .innerJoin(accounts, eq(accounts.id, machines.accountId))
    .where(and(eq(issues.id, q.id), where({ hiddenClassIds: q.hiddenClassIds })));
  const [row] = q.forUpdate ? await query.for('update', { of: issues }) : await query;
  if (!row) return undefined;
  return { issue: toIssue(row), account: row.account };
}

/** Sets the Resolved flag (and `resolved_at` when resolving). */
export async function updateResolved(db: DbOrTx, id: number, isResolved: boolean): Promise<void> {
  await db
    .update(issues)
    .set({ isResolved, resolvedAt: isResolved ? sql`now()` : null })
    .where(eq(issues.id, id));
}

/** A page of the issue's logs, newest first, with the total. */
export async function selectIssueLogs(
  db: DbOrTx,
  q: { issueId: number; startIndex: number; limit: number },
): Promise<{ items: TIssueLog[]; totalItems: number }> {
  const rows = await db
    .select()
    .from(issueLogs)
    .where(eq(issueLogs.issueId, q.issueId))
    .orderBy(desc(issueLogs.id))
    .offset(q.startIndex)
    .limit(q.limit);
  const [total] = await db.select({ n: count() }).from(issueLogs).where(eq(issueLogs.issueId, q.issueId));
  return {
    items: rows.map((r) => ({
      id: r.id,
      timestamp: r.timestamp.toISOString(),
      content: r.content,
      tags: r.tags,
      size: r.size,
      complete: r.complete,
    })),
    totalItems: total?.n ?? 0,
  };
}
