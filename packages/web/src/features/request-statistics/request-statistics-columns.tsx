/**
 * Columns of the Request Statistics viewer (spec 2 §2.10, §3 Request statistic;
 * issue 24 point 7): machine, url, last update, last latency, last success,
 * then the average latency (ms) and the success ratio (%), each for the
 * week, the day and the hour under one header naming the unit; Machine and
 * Last Update sort on the server.
 */
import { Tag, Typography, type TableProps } from 'antd';
import { Link } from 'react-router';
import type { TRequestStatistic, TRequestStatisticsSort, TSortOrder } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';
import { columnSortOrder } from '../viewer/use-viewer-params';
import './request-statistics.css';

type Column = NonNullable<TableProps<TRequestStatistic>['columns']>[number];

/** A latency in ms, one decimal; an em dash without probes. */
export const formatLatency = (ms: number | null) => (ms === null ? '—' : `${ms.toFixed(1)} ms`);
/** A latency's number of ms, one decimal (the unit in the header); an em dash without probes. */
const formatMs = (ms: number | null) => (ms === null ? '—' : ms.toFixed(1));
/** A success ratio (0..1) as a percentage's number, one decimal (the unit in the header); an em dash without probes. */
const formatPercent = (ratio: number | null) => (ratio === null ? '—' : (ratio * 100).toFixed(1));

const figure = (title: string, key: keyof TRequestStatistic, format: (v: number | null) => string): Column => ({
  title,
  key,
  align: 'right',
  render: (_: unknown, s: TRequestStatistic) => format(s[key] as number | null),
});

/** A group of the week, day and hour figures under one title naming the figure and its unit. */
const figures = (title: string, keys: [keyof TRequestStatistic, keyof TRequestStatistic, keyof TRequestStatistic], format: (v: number | null) => string) => ({
  title,
  key: title,
  children: [figure('Week', keys[0], format), figure('Day', keys[1], format), figure('Hour', keys[2], format)],
});

/** Text cut to `width` pixels with an ellipsis, the whole as a tooltip. */
const clipped = (text: string, width: number) => (
  <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: width }}>
    {text}
  </Typography.Text>
);

/**
 * The columns under the order `sort` (the URL's): Machine sorts by name
 * (ascending first), Last Update by the last probe (newest first); machine
 * names and URLs end in an ellipsis (the whole as a tooltip or title) and the
 * figures sit under two headers, so that every column fits at 1440 pixels.
 */
export function requestStatisticsColumns(sort: { sort: TRequestStatisticsSort; order: TSortOrder } | undefined): Column[] {
  return [
    {
      title: 'Machine',
      key: 'machine',
      sorter: true,
      sortDirections: ['ascend', 'descend'],
      sortOrder: columnSortOrder(sort, 'machine'),
      // The link selects that machine in the viewer (kept in the URL).
      render: (_: unknown, s) => (
        <Link to={`/viewer/request-statistics?machine=${s.machineId}`} title={s.machineName} className="request-statistics-machine">
          {s.machineName}
        </Link>
      ),
    },
    { title: 'Url', key: 'url', render: (_: unknown, s) => clipped(s.url, 150) },
    {
      title: 'Last Update',
      key: 'lastUpdate',
      sorter: true,
      sortDirections: ['descend', 'ascend'],
      sortOrder: columnSortOrder(sort, 'lastUpdate'),
      render: (_: unknown, s) => formatDateTime(s.lastUpdate, DATE_TIME_SECONDS_FORMAT),
    },
    figure('Last Latency', 'lastLatency', formatLatency),
    {
      title: 'Last Success',
      key: 'lastSuccess',
      render: (_: unknown, s) => (s.lastSuccess ? <Tag color="success">Yes</Tag> : <Tag color="error">No</Tag>),
    },
    figures('Avg latency (ms)', ['avgWeek', 'avgDay', 'avgHour'], formatMs),
    figures('Success (%)', ['succWeek', 'succDay', 'succHour'], formatPercent),
  ];
}
