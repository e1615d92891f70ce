/**
 * Columns of the Issue viewer (spec 2 §2.5; issue 24 point 7): first and last
 * occurrence time, machine name (a link that filters by the machine),
 * description, tags (a click filters by the tag), count, the Resolved switch
 * and the log count; the times and the count sort on the server. Sized so
 * that every column, the Resolved switch included, is in view at 1440 pixels.
 */
import { Button, Switch, Tag, type TableProps } from 'antd';
import type { TIssue, TIssueSort, TSortOrder } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';
import { columnSortOrder } from '../../viewer/use-viewer-params';

type Column = NonNullable<TableProps<TIssue>['columns']>[number];

export interface IssueColumnActions {
  onMachine: (machineId: number) => void;
  onTag: (tag: string) => void;
  onResolved: (issue: TIssue, isResolved: boolean) => void;
  /** Without write permission the switch is read-only. */
  canWrite: boolean;
  /** The list's order (the URL's): its column shows the arrow. */
  sort: { sort: TIssueSort; order: TSortOrder } | undefined;
}

/** Keeps a click on a control inside a row from also opening the row's logs. */
const stop = (e: { stopPropagation(): void }) => e.stopPropagation();

/** The table's least width: the columns' fixed widths and room for the description (below it, the table scrolls). */
export const ISSUES_TABLE_MIN_WIDTH = 1100;

/** A column sorted on the server by `key` (an ISSUE_SORTS name), newest or most first. */
const sortable = (key: TIssueSort, sort: IssueColumnActions['sort']): Partial<Column> => ({
  sorter: true,
  sortDirections: ['descend', 'ascend'],
  sortOrder: columnSortOrder(sort, key),
});

export function issueColumns(a: IssueColumnActions): Column[] {
  return [
    {
      key: 'first',
      title: 'First occurrence',
      width: 160,
      ...sortable('first', a.sort),
      render: (_, i) => formatDateTime(i.firstOccurrenceTime, DATE_TIME_SECONDS_FORMAT),
    },
    {
      key: 'last',
      title: 'Last occurrence',
      width: 160,
      ...sortable('last', a.sort),
      render: (_, i) => formatDateTime(i.lastOccurrenceTime, DATE_TIME_SECONDS_FORMAT),
    },
    {
      key: 'machine',
      title: 'Machine',
      width: 190,
      ellipsis: true,
      render: (_, i) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', justifyContent: 'flex-start' }}
          title={i.machineName}
          aria-label={`Filter by machine ${i.machineName}`}
          onClick={(e) => {
            stop(e);
            a.onMachine(i.machineId);
          }}
        >
          {i.machineName}
        </Button>
      ),
    },
    // Cut to one line (the whole text as its title, and in the logs drawer) so that the switch stays in view;
    // no width: it takes the room the others leave.
    { key: 'description', title: 'Description', dataIndex: 'description', ellipsis: true },
    {
      key: 'tags',
      title: 'Tags',
      width: 190,
      render: (_, i) =>
        i.tags.map((t) => (
          <Tag
            key={t}
            role="button"
            tabIndex={0}
            aria-label={`Filter by tag ${t}`}
            // Wrapped tags stacked with no gap are targets closer than 24 px (axe target-size, WCAG 2.5.8).
            style={{ cursor: 'pointer', marginBlock: 2 }}
            onClick={(e) => {
              stop(e);
              a.onTag(t);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                stop(e);
                a.onTag(t);
              }
            }}
          >
            {t}
          </Tag>
        )),
    },
    { key: 'count', title: 'Count', dataIndex: 'count', width: 90, ...sortable('count', a.sort) },
    {
      key: 'resolved',
      title: 'Resolved',
      width: 95,
      render: (_, i) => (
        <span onClick={stop} onKeyDown={stop}>
          <Switch size="small" checked={i.isResolved} disabled={!a.canWrite} aria-label={`Resolved: ${i.description}`} onChange={(v) => a.onResolved(i, v)} />
        </span>
      ),
    },
    { key: 'logCount', title: 'Logs', dataIndex: 'logCount', width: 65 },
  ];
}
