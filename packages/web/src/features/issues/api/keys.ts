/** Query keys of issues (spec 2 §2.5 Issue viewer, §7 Issues). */
import type { TIssueSort, TIssueStatus, TSortOrder } from '@fleet/contracts';

/** The Issue viewer's filter (`GET /issues`, `GET /issues/tags`). */
export interface IssuesFilterQuery {
  machineId?: number;
  /** Comma-joined tags, or undefined. */
  tags?: string;
  /** Open issues only (`unresolved`), resolved only, or all. */
  status: TIssueStatus;
  /** The machine's class. */
  classId?: number;
  /** The last occurrence's range (ISO 8601). */
  from?: string;
  to?: string;
}

/** One page of the Issue viewer (`GET /issues`): the filter, the order and the page. */
export interface IssuesPageQuery extends IssuesFilterQuery {
  sort?: TIssueSort;
  order?: TSortOrder;
  startIndex: number;
  limit: number;
}

/** The tag filter's suggestions (`GET /issues/tags`): the viewer's filter and the text typed. */
export interface IssueTagsQuery extends IssuesFilterQuery {
  search: string;
}

export const issueKeys = {
  all: ['issues'] as const,
  /** Every cached page of the viewer (what the Resolved switch updates). */
  pages: () => [...issueKeys.all, 'page'] as const,
  page: (query: IssuesPageQuery) => [...issueKeys.pages(), query] as const,
  logs: (issueId: number, startIndex: number) => [...issueKeys.all, 'logs', issueId, startIndex] as const,
  /** Every cached answer of the tag suggestions (a resolved switch changes their counts). */
  allTags: () => [...issueKeys.all, 'tags'] as const,
  tags: (query: IssueTagsQuery) => [...issueKeys.allTags(), query] as const,
};
