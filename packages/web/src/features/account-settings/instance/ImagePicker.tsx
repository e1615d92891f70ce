/**
 * The image field of the Instance Settings card (spec 1 §2 "image (opens an
 * image picker)", "Image picker popover"; spec 3 §2.3): the chosen image's name
 * and a Choose button opening a popover with a table of `GET /cloud/images`
 * filtered by region, version (including N/A), jump-start and official (each
 * tri-state but the region and version, which are any or one value). Inactive
 * images and images of another region than the form's cannot be picked (their
 * row says why). A warning says that changing the VM image may require
 * recreating the machine.
 *
 * A form control: `value` is the image name and `onChange(name)` is called on a
 * pick, followed by `onPicked(image)` for what the pick implies (the form's
 * region, a jump-start image's settings). `locked` (existing accounts) disables
 * the Choose button.
 */
import { useState } from 'react';
import { Button, Flex, Input, Popover, Radio, Select, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckOutlined, LockOutlined, PictureOutlined, WarningOutlined } from '@ant-design/icons';
import type { TRegion, TSaasImage } from '@fleet/contracts';
import { useSaasImages } from '../../catalogues/api/queries';
import { filterImages, imageBlock, NO_VERSION, versionOptions, type ImageFilters, type TriState } from './image-picker';

/** The warning of the popover (spec 1 §2, spec 3 §2.3). */
const IMAGE_CHANGE_WARNING = 'Changing the VM image may require recreating the machine.';
/** Why the button is disabled for an existing account (spec 1 §2 "locked for existing accounts"). */
const IMAGE_LOCKED_TEXT = 'The image of an existing account cannot be changed';

export interface ImagePickerProps {
  id?: string;
  value?: string;
  onChange?: (name: string) => void;
  /** Called after `onChange` with the picked image. */
  onPicked?: (image: TSaasImage) => void;
  /** The form's region (cloud code): the region filter starts there and other regions cannot be picked. */
  region?: string;
  regions: readonly TRegion[];
  locked?: boolean;
  disabled?: boolean;
}

const TRI_STATE = [
  { value: 'any', label: 'Any' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const tick = (on: boolean, label: string) => (on ? <CheckOutlined aria-label={label} /> : null);

export function ImagePicker({ id, value, onChange, onPicked, region, regions, locked, disabled }: ImagePickerProps) {
  const [open, setOpen] = useState(false);
  const { token } = theme.useToken();
  const images = useSaasImages();
  const current = images.data?.find((i) => i.name === value);
  const buttonDisabled = disabled || locked;

  const pick = (image: TSaasImage) => {
    if (imageBlock(image, region)) return;
    onChange?.(image.name);
    onPicked?.(image);
    setOpen(false);
  };

  const button = (
    <Button
      icon={locked ? <LockOutlined aria-hidden /> : <PictureOutlined aria-hidden />}
      disabled={buttonDisabled}
      aria-label="Choose image"
      aria-haspopup="dialog"
      aria-expanded={open}
    >
      Choose
    </Button>
  );

  return (
    <Flex vertical gap={4}>
      <Space.Compact block>
        <Input id={id} value={value ?? ''} readOnly disabled={disabled} placeholder="No image" aria-readonly="true" />
        {buttonDisabled ? (
          <Tooltip title={locked ? IMAGE_LOCKED_TEXT : undefined}>{button}</Tooltip>
        ) : (
          <Popover
            trigger="click"
            placement="bottomLeft"
            open={open}
            onOpenChange={setOpen}
            destroyOnHidden
            // A box shadow instead of antd's drop-shadow filters, which software
            // rendering (headless browsers, remote desktops) paints slowly over a table.
            styles={{ root: { filter: 'none' }, container: { boxShadow: token.boxShadowSecondary } }}
            content={
              <ImageTable
                images={images.data ?? []}
                loading={images.isLoading}
                region={region}
                regions={regions}
                selected={value}
                onPick={pick}
              />
            }
          >
            {button}
          </Popover>
        )}
      </Space.Compact>
      {current && (
        <Flex gap={4} wrap>
          <Tag>{current.irmnVersion ?? NO_VERSION}</Tag>
          <Tag>{current.osType}</Tag>
          {current.jumpStart && <Tag color="purple">Jump-start</Tag>}
          {!current.official && <Tag color="orange">Unofficial</Tag>}
          {!current.active && <Tag color="red">Inactive</Tag>}
        </Flex>
      )}
    </Flex>
  );
}

interface ImageTableProps {
  images: TSaasImage[];
  loading: boolean;
  region: string | undefined;
  regions: readonly TRegion[];
  selected: string | undefined;
  onPick(image: TSaasImage): void;
}

/** The popover's content, mounted per opening so that the filters start from the form's region. */
function ImageTable({ images, loading, region, regions, selected, onPick }: ImageTableProps) {
  const [filters, setFilters] = useState<ImageFilters>({ region: region || undefined, jumpStart: 'any', official: 'any' });
  const set = (patch: Partial<ImageFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const rows = filterImages(images, filters);
  const regionName = (code: string) => regions.find((r) => r.cloudCode === code)?.name ?? code;

  const columns: TableColumnsType<TSaasImage> = [
    {
      title: 'Name',
      dataIndex: 'name',
      width: 300,
      render: (name: string, image) => (
        <Flex vertical>
          <Typography.Text strong>{name}</Typography.Text>
          {image.description && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {image.description}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: 'Region',
      dataIndex: 'region',
      width: 130,
      render: (code: string) => (
        <Tooltip title={regionName(code)}>
          <span>{code}</span>
        </Tooltip>
      ),
    },
    { title: 'Version', dataIndex: 'irmnVersion', width: 80, render: (v: string | null) => v ?? NO_VERSION },
    { title: 'OS', dataIndex: 'osType', width: 90 },
    { title: 'Official', dataIndex: 'official', width: 80, align: 'center', render: (v: boolean) => tick(v, 'Official') },
    { title: 'Jump-start', dataIndex: 'jumpStart', width: 95, align: 'center', render: (v: boolean) => tick(v, 'Jump-start') },
    {
      title: 'Status',
      key: 'status',
      width: 120,
      render: (_, image) => {
        const block = imageBlock(image, region);
        return block ? <Tag color={block === 'Inactive' ? 'red' : 'default'}>{block}</Tag> : <Tag color="green">Available</Tag>;
      },
    },
  ];

  return (
    <Flex vertical gap={8} style={{ width: 960, maxWidth: '90vw' }} role="dialog" aria-label="Select image">
      <Typography.Text type="warning" role="note">
        <WarningOutlined aria-hidden /> {IMAGE_CHANGE_WARNING}
      </Typography.Text>
      <Flex gap={12} wrap align="center" role="group" aria-label="Image filters">
        <Select
          aria-label="Region filter"
          placeholder="Any region"
          allowClear
          value={filters.region}
          onChange={(v?: string) => set({ region: v })}
          options={regions.map((r) => ({ value: r.cloudCode, label: `${r.name} (${r.cloudCode})` }))}
          style={{ width: 260 }}
        />
        <Select
          aria-label="Version filter"
          placeholder="Any version"
          allowClear
          value={filters.version}
          onChange={(v?: string) => set({ version: v })}
          options={versionOptions(images).map((v) => ({ value: v, label: v }))}
          style={{ width: 140 }}
        />
        <Space size={4}>
          <Typography.Text id="image-filter-jump-start">Jump-start</Typography.Text>
          <Radio.Group
            aria-labelledby="image-filter-jump-start"
            optionType="button"
            size="small"
            value={filters.jumpStart}
            onChange={(e) => set({ jumpStart: e.target.value as TriState })}
            options={TRI_STATE}
          />
        </Space>
        <Space size={4}>
          <Typography.Text id="image-filter-official">Official</Typography.Text>
          <Radio.Group
            aria-labelledby="image-filter-official"
            optionType="button"
            size="small"
            value={filters.official}
            onChange={(e) => set({ official: e.target.value as TriState })}
            options={TRI_STATE}
          />
        </Space>
      </Flex>
      <Table<TSaasImage>
        size="small"
        rowKey="id"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        // A bounded height keeps the popover on screen under the field.
        scroll={{ y: 300 }}
        locale={{ emptyText: 'No image matches the filters' }}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: rows.filter((i) => i.name === selected).map((i) => i.id),
          onChange: (_, picked) => picked[0] && onPick(picked[0]),
          getCheckboxProps: (image) => ({ disabled: imageBlock(image, region) !== null, 'aria-label': `Pick ${image.name}` }),
        }}
        onRow={(image) => ({
          onClick: (event) => {
            // The radio of the row reports the pick through rowSelection already.
            if ((event.target as HTMLElement).closest('.ant-table-selection-column')) return;
            onPick(image);
          },
          style: { cursor: imageBlock(image, region) ? 'not-allowed' : 'pointer' },
          'aria-disabled': imageBlock(image, region) !== null,
        })}
      />
    </Flex>
  );
}
