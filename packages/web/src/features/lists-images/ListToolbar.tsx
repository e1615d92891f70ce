/**
 * The controls above an image list (spec 3 §2.3, §2.4): the search box, a region
 * filter (SaaS images), a refresh button and, with `write`, a create button.
 */
import type { ReactNode } from 'react';
import { Button, Flex, Input, Select } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { TRegion } from '@fleet/contracts';

export interface ListToolbarProps {
  text: string;
  onText(text: string): void;
  searchLabel: string;
  regions?: { value: string | undefined; options: readonly TRegion[]; onChange(region: string | undefined): void };
  refreshing: boolean;
  onRefresh(): void;
  children?: ReactNode;
}

export function ListToolbar({ text, onText, searchLabel, regions, refreshing, onRefresh, children }: ListToolbarProps) {
  return (
    <Flex gap={8} wrap style={{ marginBottom: 16 }}>
      <Input.Search allowClear placeholder={searchLabel} aria-label={searchLabel} value={text} onChange={(e) => onText(e.target.value)} style={{ width: 280 }} />
      {regions && (
        <Select
          allowClear
          placeholder="All regions"
          aria-label="Region"
          style={{ width: 220 }}
          value={regions.value}
          onChange={(v: string | undefined) => regions.onChange(v)}
          options={regions.options.map((r) => ({ value: r.cloudCode, label: `${r.name} (${r.cloudCode})` }))}
        />
      )}
      <Button icon={<ReloadOutlined />} loading={refreshing} onClick={onRefresh}>
        Refresh
      </Button>
      <Flex flex={1} justify="flex-end">
        {children}
      </Flex>
    </Flex>
  );
}
