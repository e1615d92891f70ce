/**
 * Filters of the activity log (spec 2 §2.11; issue 24 point 6): account
 * (searchable; the server's lookup already leaves out Customer Production
 * accounts for users without the group), action (the audit action codes), user
 * (the users of the activities, searchable), time range (date and time, in the
 * browser's time zone, shown with its offset from UTC; either end may be open), a switch that shows sign-ins and
 * sign-outs (hidden by default), sort Newest or Oldest, and Refresh.
 */
import { useMemo } from 'react';
import { Button, Radio, Select, Switch } from 'antd';
import { RangePicker } from '../../../components/LazyDatePicker';
import { FilterBar, FilterField } from '../../../components/FilterBar';
import { ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { AUDIT_ACTIONS, type TAuditAction } from '@fleet/contracts';
import { zonedPickerFormat } from '../../../lib/format';
import { useAccountLookup } from '../../accounts/api/queries';
import { useActivityUsers, type ActivityFilter } from '../api/queries';

const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: a }));
const SORT_OPTIONS = [
  { value: 'Descending', label: 'Newest' },
  { value: 'Ascending', label: 'Oldest' },
];

interface Props {
  filter: ActivityFilter;
  refreshing: boolean;
  onChange(patch: Partial<ActivityFilter>): void;
  onRefresh(): void;
}

type Range = [Dayjs | null, Dayjs | null] | null;

export function ActivityFilters({ filter, refreshing, onChange, onRefresh }: Props) {
  const accounts = useAccountLookup();
  const users = useActivityUsers();
  const accountOptions = useMemo(
    () => (accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [accounts.data],
  );
  const userOptions = useMemo(() => {
    const names = new Set(users.data ?? []);
    // A user in the URL that the list does not hold (yet) stays shown.
    if (filter.user) names.add(filter.user);
    return [...names].sort((a, b) => a.localeCompare(b)).map((u) => ({ value: u, label: u }));
  }, [users.data, filter.user]);
  const range: Range = filter.from || filter.to ? [filter.from ? dayjs(filter.from) : null, filter.to ? dayjs(filter.to) : null] : null;

  const onRange = (value: Range) =>
    onChange({ from: value?.[0]?.startOf('minute').toISOString(), to: value?.[1]?.endOf('minute').toISOString() });

  return (
    <FilterBar alignEnd>
      <FilterField label="Account" htmlFor="activity-account" style={{ flex: '1 1 220px' }}>
        <Select
          id="activity-account"
          allowClear
          placeholder="All accounts"
          options={accountOptions}
          loading={accounts.isLoading}
          value={filter.accountId}
          onChange={(accountId: number | undefined) => onChange({ accountId })}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </FilterField>
      <FilterField label="Action" htmlFor="activity-action" style={{ flex: '1 1 200px' }}>
        <Select
          id="activity-action"
          allowClear
          placeholder="All actions"
          options={ACTION_OPTIONS}
          value={filter.action}
          onChange={(action: TAuditAction | undefined) => onChange({ action })}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </FilterField>
      <FilterField label="User" htmlFor="activity-user" style={{ flex: '1 1 160px' }}>
        <Select
          id="activity-user"
          allowClear
          placeholder="All users"
          options={userOptions}
          loading={users.isLoading}
          value={filter.user}
          onChange={(user: string | undefined) => onChange({ user })}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </FilterField>
      <FilterField label="Time" htmlFor="activity-from" style={{ flex: '1 1 480px' }}>
        <RangePicker
          id={{ start: 'activity-from', end: 'activity-to' }}
          aria-label="Time range"
          showTime={{ format: 'HH:mm' }}
          format={zonedPickerFormat()}
          allowEmpty={[true, true]}
          placeholder={['From', 'To']}
          value={range}
          onChange={(value) => onRange(value as Range)}
          style={{ width: '100%' }}
        />
      </FilterField>
      <FilterField label="Sign-ins" htmlFor="activity-sign-ins">
        <Switch id="activity-sign-ins" aria-label="Show sign-ins and sign-outs" checked={filter.signIns} onChange={(signIns) => onChange({ signIns })} />
      </FilterField>
      <FilterField label="Sort">
        <Radio.Group
          aria-label="Sort"
          optionType="button"
          options={SORT_OPTIONS}
          value={filter.sortDirection}
          onChange={(e) => onChange({ sortDirection: e.target.value === 'Ascending' ? 'Ascending' : 'Descending' })}
        />
      </FilterField>
      <FilterField>
        <Button icon={<ReloadOutlined aria-hidden />} loading={refreshing} onClick={onRefresh}>
          Refresh
        </Button>
      </FilterField>
    </FilterBar>
  );
}
