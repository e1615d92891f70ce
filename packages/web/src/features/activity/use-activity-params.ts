/**
 * Filters of the activity log kept in the URL query string (spec 2 §2.11;
 * DESIGN §10): accountId, action and sortDirection (Descending = Newest, the
 * default; Ascending = Oldest); and `activityId`, the activity whose details
 * are shown (an operation's row links to `/activity?activityId={id}`).
 */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { AUDIT_ACTIONS } from '@fleet/contracts';
import { oneOf, writeParam } from '../../lib/url-params';
import type { ActivityFilter } from './api/queries';

const asAction = oneOf(AUDIT_ACTIONS);

export function useActivityParams() {
  const [params, setParams] = useSearchParams();

  const filter = useMemo<ActivityFilter>(() => {
    const accountId = Number(params.get('accountId'));
    return {
      accountId: Number.isInteger(accountId) && accountId > 0 ? accountId : undefined,
      action: asAction(params.get('action')),
      sortDirection: params.get('sortDirection') === 'Ascending' ? 'Ascending' : 'Descending',
    };
  }, [params]);

  const activityId = useMemo(() => {
    const id = Number(params.get('activityId'));
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  }, [params]);

  const setActivityId = (id: number | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        writeParam(next, 'activityId', id?.toString());
        return next;
      },
      { replace: true },
    );

  const setFilter = (patch: Partial<ActivityFilter>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if ('accountId' in patch) writeParam(next, 'accountId', patch.accountId?.toString());
        if ('action' in patch) writeParam(next, 'action', patch.action);
        if (patch.sortDirection) writeParam(next, 'sortDirection', patch.sortDirection === 'Ascending' ? 'Ascending' : undefined);
        return next;
      },
      { replace: true },
    );

  return { filter, setFilter, activityId, setActivityId };
}
