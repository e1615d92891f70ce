/** Query keys of issues (spec 2 §2.5 Issue viewer, §7 Issues). */

/** One page of the Issue viewer (`GET /issues`). */
export interface IssuesPageQuery {
  machineId?: number;
  /** Comma-joined tags, or undefined. */
  tags?: string;
  startIndex: number;
  limit: number;
}

export const issueKeys = {
  all: ['issues'] as const,
  /** Every cached page of the viewer (what the Resolved switch updates). */
  pages: () => [...issueKeys.all, 'page'] as const,
  page: (query: IssuesPageQuery) => [...issueKeys.pages(), query] as const,
  logs: (issueId: number, startIndex: number) => [...issueKeys.all, 'logs', issueId, startIndex] as const,
};
