/**
 * Filters of the activity log (spec 2 §2.11): account (searchable; the server's
 * lookup already leaves out Customer Production accounts for users without the
 * group), action (the audit action codes), sort Newest or Oldest, and Refresh.
 */
import { useMemo } from 'react';
import { Button, Form, Radio, Select } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { AUDIT_ACTIONS, type TAuditAction } from '@fleet/contracts';
import { useAccountLookup } from '../../accounts/api/queries';
import type { ActivityFilter } from '../api/queries';

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

export function ActivityFilters({ filter, refreshing, onChange, onRefresh }: Props) {
  const accounts = useAccountLookup();
  const accountOptions = useMemo(
    () => (accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [accounts.data],
  );

  return (
    <Form layout="vertical" component="div" style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12, alignItems: 'flex-end' }}>
      <Form.Item label="Account" htmlFor="activity-account" style={{ flex: '1 1 240px', marginBottom: 12 }}>
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
      </Form.Item>
      <Form.Item label="Action" htmlFor="activity-action" style={{ flex: '1 1 220px', marginBottom: 12 }}>
        <Select
          id="activity-action"
          allowClear
          placeholder="All actions"
          options={ACTION_OPTIONS}
          value={filter.action}
          onChange={(action: TAuditAction | undefined) => onChange({ action })}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item label="Sort" style={{ marginBottom: 12 }}>
        <Radio.Group
          aria-label="Sort"
          optionType="button"
          options={SORT_OPTIONS}
          value={filter.sortDirection}
          onChange={(e) => onChange({ sortDirection: e.target.value === 'Ascending' ? 'Ascending' : 'Descending' })}
        />
      </Form.Item>
      <Form.Item style={{ marginBottom: 12 }}>
        <Button icon={<ReloadOutlined aria-hidden />} loading={refreshing} onClick={onRefresh}>
          Refresh
        </Button>
      </Form.Item>
    </Form>
  );
}
