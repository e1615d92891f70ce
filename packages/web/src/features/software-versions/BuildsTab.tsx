/**
 * Builds tab of the Select Version modal (spec 3 §2.1, §7 `GET
 * /software/{software}/builds?type=`, §9): a Daily/Release toggle (Daily first)
 * and the builds of that type, newest first, with name, last modified and size
 * (base 1000, 2 decimals). Clicking a row (or its radio) chooses the build:
 * `onChoose` gets its URL.
 */
import { useState } from 'react';
import { Flex, Radio, Table, type TableColumnsType } from 'antd';
import { BUILD_TYPES, type TBuild, type TConfigComponent } from '@fleet/contracts';
import { formatDateTime } from '../../lib/format';
import { useBuilds } from './api/queries';
import { formatFileSize } from './version-format';

interface BuildsTabProps {
  software: TConfigComponent;
  /** The chosen version, if it is a build URL. */
  chosen: string | null;
  onChoose(url: string): void;
}

const columns: TableColumnsType<TBuild> = [
  { title: 'Name', dataIndex: 'name', ellipsis: true },
  { title: 'Last modified', dataIndex: 'lastModified', width: 170, render: (iso: string) => formatDateTime(iso) },
  { title: 'Size', dataIndex: 'size', width: 120, align: 'right', render: (size: number) => formatFileSize(size) },
];

export function BuildsTab({ software, chosen, onChoose }: BuildsTabProps) {
  const [type, setType] = useState<TBuild['type']>('Daily');
  const builds = useBuilds(software, type);
  return (
    <Flex vertical gap={12}>
      <Radio.Group
        aria-label="Build type"
        optionType="button"
        buttonStyle="solid"
        value={type}
        onChange={(e) => setType(e.target.value as TBuild['type'])}
        options={BUILD_TYPES.map((t) => ({ value: t, label: t }))}
      />
      <Table<TBuild>
        size="small"
        rowKey="url"
        columns={columns}
        dataSource={builds.data ?? []}
        loading={builds.isFetching}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: chosen ? [chosen] : [],
          onChange: (keys) => keys[0] !== undefined && onChoose(String(keys[0])),
          columnWidth: 36,
        }}
        onRow={(b) => ({ onClick: () => onChoose(b.url), style: { cursor: 'pointer' } })}
        locale={{ emptyText: builds.isError ? 'Builds could not be loaded' : `No ${type.toLowerCase()} builds` }}
        pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
      />
    </Flex>
  );
}
