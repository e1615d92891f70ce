/**
 * `PATCH /issues/{id}` (spec 2 §4, §8 Update issue): the Resolved switch. The
 * row changes at once; on failure it is put back after 500 ms
 * (`ISSUE_REVERT_DELAY_MS`) with 'Error occurred updating issue'; success shows
 * 'Issue updated' and reloads the shown pages (an issue resolved in the list of
 * open issues leaves it) and the tag suggestions.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ISSUE_REVERT_DELAY_MS,
  ISSUE_UPDATE_ERROR,
  ISSUE_UPDATE_SUCCESS,
  type TIssue,
  type TIssuesPage,
} from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { issueKeys } from './keys';

/** Sets the issue's Resolved flag in every cached page. */
function setResolvedInPages(queryClient: QueryClient, issueId: number, isResolved: boolean) {
  queryClient.setQueriesData<TIssuesPage>({ queryKey: issueKeys.pages() }, (page) =>
    page ? { ...page, items: page.items.map((i) => (i.id === issueId ? { ...i, isResolved } : i)) } : page,
  );
}

export function useUpdateIssue() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ issue, isResolved }: { issue: TIssue; isResolved: boolean }) => api.patch<TIssue>(`issues/${issue.id}`, { isResolved }),
    onMutate: async ({ issue, isResolved }) => {
      await queryClient.cancelQueries({ queryKey: issueKeys.pages() });
      setResolvedInPages(queryClient, issue.id, isResolved);
    },
    onError: (_error, { issue }) => {
      toast.error(ISSUE_UPDATE_ERROR);
      setTimeout(() => setResolvedInPages(queryClient, issue.id, issue.isResolved), ISSUE_REVERT_DELAY_MS);
    },
    onSuccess: (updated) => {
      setResolvedInPages(queryClient, updated.id, updated.isResolved);
      toast.success(ISSUE_UPDATE_SUCCESS);
      // Reloaded: in the default list (open issues only) a resolved issue leaves it.
      void queryClient.invalidateQueries({ queryKey: issueKeys.pages() });
      void queryClient.invalidateQueries({ queryKey: issueKeys.allTags() });
    },
  });
}
