/**
 * Columns of the Issue viewer (spec 2 §2.5): first and last occurrence time,
 * machine name (a link that filters by the machine), description, tags (a
 * click filters by the tag), count, the Resolved switch and the log count.
 */
import { Button, Switch, Tag, type TableProps } from 'antd';
import type { TIssue } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../../lib/format';

type Column = NonNullable<TableProps<TIssue>['columns']>[number];

export interface IssueColumnActions {
  onMachine: (machineId: number) => void;
  onTag: (tag: string) => void;
  onResolved: (issue: TIssue, isResolved: boolean) => void;
  /** Without write permission the switch is read-only. */
  canWrite: boolean;
}

/** Keeps a click on a control inside a row from also opening the row's logs. */
const stop = (e: { stopPropagation(): void }) => e.stopPropagation();

export function issueColumns(a: IssueColumnActions): Column[] {
  return [
    { key: 'first', title: 'First occurrence', width: 170, render: (_, i) => formatDateTime(i.firstOccurrenceTime, DATE_TIME_SECONDS_FORMAT) },
    { key: 'last', title: 'Last occurrence', width: 170, render: (_, i) => formatDateTime(i.lastOccurrenceTime, DATE_TIME_SECONDS_FORMAT) },
    {
      key: 'machine',
      title: 'Machine',
      width: 240,
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
    // Cut to one line (the whole text as its title, and in the logs drawer) so that the switch stays in view.
    { key: 'description', title: 'Description', dataIndex: 'description', ellipsis: true, width: 300 },
    {
      key: 'tags',
      title: 'Tags',
      width: 220,
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
    { key: 'count', title: 'Count', dataIndex: 'count', width: 80 },
    {
      key: 'resolved',
      title: 'Resolved',
      width: 100,
      render: (_, i) => (
        <span onClick={stop} onKeyDown={stop}>
          <Switch size="small" checked={i.isResolved} disabled={!a.canWrite} aria-label={`Resolved: ${i.description}`} onChange={(v) => a.onResolved(i, v)} />
        </span>
      ),
    },
    { key: 'logCount', title: 'Logs', dataIndex: 'logCount', width: 70 },
  ];
}
