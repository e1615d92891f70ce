/**
 * Filters of the activity log kept in the URL query string (spec 2 §2.11;
 * DESIGN §10; issue 24 point 6): accountId, action, user, the time range `from`
 * and `to` (ISO 8601 times), `signIns=true` (sign-ins and sign-outs shown; hidden
 * by default), and sortDirection (Descending = Newest, the default; Ascending =
 * Oldest); and `activityId`, the activity whose details are shown (an operation
 * or a rollout links to `/activity?activityId={id}`).
 */
import { useMemo } from 'react';
import { useSearchParams } from '../../lib/use-search-params';
import { AUDIT_ACTIONS } from '@fleet/contracts';
import { oneOf, writeParam } from '../../lib/url-params';
import type { ActivityFilter } from './api/queries';

const asAction = oneOf(AUDIT_ACTIONS);

/** A positive integer id, else none. */
function readId(raw: string | null): number | undefined {
  const id = Number(raw);
  return raw !== null && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** A time the server accepts (ISO 8601 with a zone, at most 40 characters), else none. */
function readTime(raw: string | null): string | undefined {
  if (!raw || raw.length > 40 || !/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(raw) || Number.isNaN(Date.parse(raw))) return undefined;
  return raw;
}

/** A user name as the server bounds it (1 to 100 characters), else none. */
function readUser(raw: string | null): string | undefined {
  const user = raw?.trim();
  return user && user.length <= 100 ? user : undefined;
}

/** The filter a query string holds; malformed values are left out. */
export function readActivityFilter(params: URLSearchParams): ActivityFilter {
  const from = readTime(params.get('from'));
  const to = readTime(params.get('to'));
  // A range whose end is before its start is dropped whole rather than sent for a 400.
  const range = from && to && Date.parse(to) < Date.parse(from) ? { from: undefined, to: undefined } : { from, to };
  return {
    accountId: readId(params.get('accountId')),
    action: asAction(params.get('action')),
    user: readUser(params.get('user')),
    ...range,
    signIns: params.get('signIns') === 'true',
    sortDirection: params.get('sortDirection') === 'Ascending' ? 'Ascending' : 'Descending',
  };
}

export function useActivityParams() {
  const [params, setParams] = useSearchParams();

  const filter = useMemo(() => readActivityFilter(params), [params]);
  const activityId = useMemo(() => readId(params.get('activityId')), [params]);

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
        if ('user' in patch) writeParam(next, 'user', patch.user);
        if ('from' in patch) writeParam(next, 'from', patch.from);
        if ('to' in patch) writeParam(next, 'to', patch.to);
        if ('signIns' in patch) writeParam(next, 'signIns', patch.signIns ? 'true' : undefined);
        if (patch.sortDirection) writeParam(next, 'sortDirection', patch.sortDirection === 'Ascending' ? 'Ascending' : undefined);
        return next;
      },
      { replace: true },
    );

  return { filter, setFilter, activityId, setActivityId };
}
