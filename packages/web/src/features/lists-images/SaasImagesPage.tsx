/**
 * SaaS Images (spec 3 §2.3, §5, route /lists/saas-images): the images offered to
 * accounts with name and cloud image, region (name and code), IRMN version,
 * description, usage count (accounts using the image), official, active,
 * jump-start and OS type; a search box (500 ms debounce, case-insensitive on the
 * name), a region filter (both kept in the URL), refresh and create. Row actions
 * edit, duplicate and delete ("Are you sure you want to delete this image:
 * {name}"; the server refuses an image in use and the error toast says who uses
 * it). Without `write` the create button and row actions are hidden.
 */
import { Suspense, useState } from 'react';
import { Button, Card, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckOutlined, CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { TSaasImage } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useToast } from '../../app/toast';
import { useRegions } from '../catalogues/api/lookups';
import { useDeleteSaasImage } from './api/mutations';
import { useSaasImageList } from './api/queries';
import { ListToolbar } from './ListToolbar';
import { LoadError } from './LoadError';
import type { SaasImageDialogMode } from './saas-image-form';
import { useListFilters } from './use-list-filters';
import { lazyNamed } from '../../lib/lazy-named';

/** The create and edit dialog, loaded when first opened (its Form is not the list's: issue 26, script per route). */
const SaasImageDialog = lazyNamed(() => import('./SaasImageDialog'), 'SaasImageDialog');

const tick = (on: boolean, label: string) => (on ? <CheckOutlined aria-label={label} /> : null);

export default function SaasImagesPage() {
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const toast = useToast();
  const filters = useListFilters();
  const regions = useRegions();
  const images = useSaasImageList({ search: filters.search, region: filters.region });
  const remove = useDeleteSaasImage();
  const [dialog, setDialog] = useState<SaasImageDialogMode | undefined>();
  const regionName = (code: string) => regions.data?.find((r) => r.cloudCode === code)?.name;

  const confirmDelete = (image: TSaasImage) =>
    void modal.confirm({
      title: 'Delete image',
      content: `Are you sure you want to delete this image: ${image.name}`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => remove.mutateAsync(image.id).catch(() => undefined),
    });

  const onRefresh = async () => {
    const result = await images.refetch();
    if (result.isError) toast.error('Error occurred loading images');
  };

  const columns: TableColumnsType<TSaasImage> = [
    {
      title: 'Name',
      key: 'name',
      width: 220,
      render: (_, i) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{i.name}</Typography.Text>
          <Typography.Text type="secondary" copyable={{ text: i.cloudImage }} style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {i.cloudImage}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: 'Region',
      dataIndex: 'region',
      width: 150,
      render: (code: string) => (
        <Space direction="vertical" size={0}>
          <span>{regionName(code) ?? code}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {code}
          </Typography.Text>
        </Space>
      ),
    },
    { title: 'IRMN version', dataIndex: 'irmnVersion', width: 80, render: (v: string | null) => v ?? 'N/A' },
    { title: 'Description', dataIndex: 'description', ellipsis: { showTitle: true } },
    { title: 'Usage', dataIndex: 'accountCount', align: 'right', width: 70 },
    { title: 'Official', dataIndex: 'official', align: 'center', width: 75, render: (v: boolean) => tick(v, 'Official') },
    { title: 'Active', dataIndex: 'active', align: 'center', width: 80, render: (v: boolean) => (v ? tick(v, 'Active') : <Tag>Inactive</Tag>) },
    { title: 'Jump-start', dataIndex: 'jumpStart', align: 'center', width: 95, render: (v: boolean) => tick(v, 'Jump-start') },
    { title: 'OS type', dataIndex: 'osType', width: 80 },
  ];
  if (canWrite) {
    columns.push({
      title: 'Actions',
      key: 'actions',
      width: 115,
      render: (_, i) => (
        <Space>
          <Tooltip title="Edit">
            <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${i.name}`} onClick={() => setDialog({ kind: 'edit', image: i })} />
          </Tooltip>
          <Tooltip title="Duplicate">
            <Button size="small" icon={<CopyOutlined />} aria-label={`Duplicate ${i.name}`} onClick={() => setDialog({ kind: 'duplicate', image: i })} />
          </Tooltip>
          <Tooltip title="Delete">
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${i.name}`} onClick={() => confirmDelete(i)} />
          </Tooltip>
        </Space>
      ),
    });
  }

  return (
    <Card title="SaaS Images">
      <ListToolbar
        text={filters.text}
        onText={filters.setText}
        searchLabel="Search images"
        regions={{ value: filters.region, options: regions.data ?? [], onChange: filters.setRegion }}
        refreshing={images.isFetching && !images.isLoading}
        onRefresh={() => void onRefresh()}
      >
        {canWrite && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create' })}>
            Create New
          </Button>
        )}
      </ListToolbar>
      {images.isError && <LoadError error={images.error} what="images" />}
      <Table<TSaasImage>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={images.data ?? []}
        loading={images.isLoading}
        pagination={{ defaultPageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 1150 }}
      />
      {dialog && (
        <Suspense fallback={null}>
          <SaasImageDialog mode={dialog} regions={regions.data ?? []} onClose={() => setDialog(undefined)} />
        </Suspense>
      )}
      {modalHolder}
    </Card>
  );
}
