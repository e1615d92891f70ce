/**
 * Columns of the Request Statistics viewer (spec 2 §2.10, §3 Request statistic):
 * machine, url, last update, last latency, last success, then the average
 * latency and the success ratio for the week, the day and the hour.
 */
import { Tag, type TableProps } from 'antd';
import { Link } from 'react-router';
import type { TRequestStatistic } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime } from '../../lib/format';

type Column = NonNullable<TableProps<TRequestStatistic>['columns']>[number];

/** A latency in ms, one decimal; an em dash without probes. */
export const formatLatency = (ms: number | null) => (ms === null ? '—' : `${ms.toFixed(1)} ms`);
/** A success ratio (0..1) as a percentage, one decimal; an em dash without probes. */
export const formatRatio = (ratio: number | null) => (ratio === null ? '—' : `${(ratio * 100).toFixed(1)} %`);

const figure = (title: string, key: keyof TRequestStatistic, format: (v: number | null) => string): Column => ({
  title,
  key,
  align: 'right',
  render: (_: unknown, s: TRequestStatistic) => format(s[key] as number | null),
});

export const REQUEST_STATISTICS_COLUMNS: Column[] = [
  {
    title: 'Machine',
    key: 'machine',
    // The link selects that machine in the viewer (kept in the URL).
    render: (_: unknown, s) => <Link to={`/viewer/request-statistics?machine=${s.machineId}`}>{s.machineName}</Link>,
  },
  { title: 'Url', key: 'url', dataIndex: 'url' },
  { title: 'Last Update', key: 'lastUpdate', render: (_: unknown, s) => formatDateTime(s.lastUpdate, DATE_TIME_SECONDS_FORMAT) },
  figure('Last Latency', 'lastLatency', formatLatency),
  {
    title: 'Last Success',
    key: 'lastSuccess',
    render: (_: unknown, s) => (s.lastSuccess ? <Tag color="success">Yes</Tag> : <Tag color="error">No</Tag>),
  },
  figure('Avg Week', 'avgWeek', formatLatency),
  figure('Avg Day', 'avgDay', formatLatency),
  figure('Avg Hour', 'avgHour', formatLatency),
  figure('Success Week', 'succWeek', formatRatio),
  figure('Success Day', 'succDay', formatRatio),
  figure('Success Hour', 'succHour', formatRatio),
];
