/**
 * `PUT /software/{software}/commits/{hash}/breaking` with `{isBreaking}` (spec 3
 * §2.1, §4 "On failure it is reverted", §8). The checkbox changes at once in every
 * cached commits page of the software; a failure puts the cached pages back and
 * shows "Error occurred updating commit" (5 s); success shows "Commit has been
 * updated" (2 s). Answers the updated `TCommit`.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TCommit, TConfigComponent, TListCommitsResponse } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { softwareKeys } from './keys';

interface BreakingVars {
  fullHash: string;
  isBreaking: boolean;
}

export function useSetCommitBreaking(software: TConfigComponent) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const listKey = softwareKeys.commitLists(software);
  return useMutation({
    mutationFn: ({ fullHash, isBreaking }: BreakingVars) =>
      api.put<TCommit>(`software/${software}/commits/${fullHash}/breaking`, { isBreaking }),
    onMutate: async ({ fullHash, isBreaking }: BreakingVars) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const before: [QueryKey, TListCommitsResponse | undefined][] = queryClient.getQueriesData<TListCommitsResponse>({ queryKey: listKey });
      queryClient.setQueriesData<TListCommitsResponse>({ queryKey: listKey }, (page) =>
        page && { ...page, items: page.items.map((c) => (c.fullHash === fullHash ? { ...c, isBreaking } : c)) },
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      for (const [key, page] of context?.before ?? []) queryClient.setQueryData(key, page);
      toast.error('Error occurred updating commit');
    },
    onSuccess: () => toast.success('Commit has been updated'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}
