/**
 * The issue calls (spec 2 §2.5 Issue viewer, §4, §7 Issues, §8 Update issue;
 * DESIGN §14): pages of issues (all machines, or one), an issue's logs, and
 * resolving or reopening an issue.
 *
 * Rules:
 * - Visibility is the machines' (DESIGN §5): issues of a Customer Production
 *   machine or account are left out of lists and answer 404 by id without group
 *   CustomerProductionAccess; `GET /machines/{id}/issues` of such a machine is 404.
 * - `PATCH /issues/{id}` is audited (`UpdateIssue`, the machine's account, the
 *   change of isResolved) in its transaction; setting the value it already has
 *   changes nothing and records nothing.
 * - The lists show open issues unless asked (`status` `resolved` or `all`), as
 *   Sentry's stream does; the engine reopens a resolved issue that occurs
 *   again (`engine/issues/raise.ts`), so it comes back into them.
 */
import type { TIssue, TIssueLogsPage, TIssueSort, TIssuesPage, TIssueStatus, TIssueTagSuggestions, TSortOrder } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { sharedRead } from '../../lib/coalesce.js';
import { notFound } from '../../lib/problem.js';
import { jsonText } from '../../lib/json-text.js';
import type { AuditService } from '../audit/audit.service.js';
import { findVisibleMachine } from '../machines/machines.repository.js';
import * as repo from './issues.repository.js';

type Page = { startIndex: number; limit: number };
/** The filter of the lists: tags (every one), status (open, resolved or all), the machine's class, the last occurrence's range. */
type Filter = { tags?: string[]; status: TIssueStatus; classId?: number; from?: string; to?: string };
/** The lists' order: by last occurrence (default), first occurrence or count; `desc` (default) or `asc`. */
type Order = { sort?: TIssueSort; order?: TSortOrder };

export interface IssueService {
  /**
   * `GET /issues`: visible issues, newest last occurrence first (or by first
   * occurrence or count, either way), filtered by machine, tags (every tag),
   * status (open only by default), class and last occurrence time.
   */
  list(o: { principal: Principal; query: Page & Filter & Order & { machineId?: number } }): Promise<TIssuesPage>;
  /** `GET /machines/{id}/issues`; 404 when the machine is unknown, deleted or hidden. */
  machineIssues(o: { principal: Principal; machineId: number; query: Page & Filter & Order }): Promise<TIssuesPage>;
  /**
   * `GET /issues/tags`: the tags in use on the visible issues the filter
   * matches, with their issue counts, most used first, at most `limit`. A
   * hidden or unknown machine matches nothing (no 404: it is a filter, as in
   * `GET /issues`).
   */
  tags(o: { principal: Principal; query: Filter & { machineId?: number; search?: string; limit: number } }): Promise<TIssueTagSuggestions>;
  /** `GET /issues/{id}/logs`, newest first; 404 when the issue is unknown or hidden. */
  logs(o: { principal: Principal; issueId: number; query: Page }): Promise<TIssueLogsPage>;
  /** `PATCH /issues/{id}`: resolve or reopen, audited; answers the issue. 404 when unknown or hidden. */
  update(o: { principal: Principal; issueId: number; isResolved: boolean }): Promise<TIssue>;
}

export function createIssueService({ db, audit }: { db: Db; audit: AuditService }): IssueService {
  /** A page as JSON text; the consoles polling the same page share each read (lib/coalesce.ts). */
  const pageText = sharedRead(repo.selectIssuePageText, db);

  return {
    list: async ({ principal, query }) => jsonText(await pageText({ ...query, hiddenClassIds: hiddenClassIds(principal) })),

    async machineIssues({ principal, machineId, query }) {
      const hidden = hiddenClassIds(principal);
      if (!(await findVisibleMachine(db, { id: machineId, hiddenClassIds: hidden }))) throw notFound(`Machine ${machineId}`);
      return jsonText(await pageText({ ...query, machineId, hiddenClassIds: hidden }));
    },

    tags: async ({ principal, query }) => ({ items: await repo.selectIssueTags(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }) }),

    async logs({ principal, issueId, query }) {
      if (!(await repo.findVisibleIssue(db, { id: issueId, hiddenClassIds: hiddenClassIds(principal) }))) throw notFound(`Issue ${issueId}`);
      return repo.selectIssueLogs(db, { issueId, ...query });
    },

    async update({ principal, issueId, isResolved }) {
      return db.transaction(async (tx) => {
        const hidden = hiddenClassIds(principal);
        const found = await repo.findVisibleIssue(tx, { id: issueId, hiddenClassIds: hidden, forUpdate: true });
        if (!found) throw notFound(`Issue ${issueId}`);
        if (found.issue.isResolved === isResolved) return found.issue;
        await repo.updateResolved(tx, issueId, isResolved);
        await audit.record(tx, {
          action: 'UpdateIssue',
          user: principal.username,
          accounts: [found.account],
          params: { issueId, machineId: found.issue.machineId, machineName: found.issue.machineName, description: found.issue.description, isResolved },
          changes: [{ entityName: 'Issue', propertyName: 'isResolved', oldValue: found.issue.isResolved, newValue: isResolved }],
        });
        return { ...found.issue, isResolved };
      });
    },
  };
}
