/** Query keys of issues (spec 2 §2.5 Issue viewer, §7 Issues). */
import type { TIssueStatus } from '@fleet/contracts';

/** One page of the Issue viewer (`GET /issues`). */
export interface IssuesPageQuery {
  machineId?: number;
  /** Comma-joined tags, or undefined. */
  tags?: string;
  /** Open issues only (`unresolved`), resolved only, or all. */
  status: TIssueStatus;
  startIndex: number;
  limit: number;
}

/** The tag filter's suggestions (`GET /issues/tags`): the viewer's filter and the text typed. */
export interface IssueTagsQuery {
  machineId?: number;
  tags?: string;
  status: TIssueStatus;
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
