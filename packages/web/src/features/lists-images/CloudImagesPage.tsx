/**
 * Cloud Images (spec 3 §2.4, route /lists/cloud-images): the images held by the
 * cloud provider (those made by Create AMI included) with id, name, description,
 * state and region; a search box (500 ms debounce, on name or id, kept in the
 * URL) and a refresh button. Each row's delete asks for confirmation naming the
 * image; the server refuses an image a SaaS image points at, and the error toast
 * names it. Without `write` the delete buttons are hidden.
 */
import { Button, Card, Modal, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { TCloudImage } from '@fleet/contracts';
import { useAuth } from '../../app/auth/auth-context';
import { useToast } from '../../app/toast';
import { useDeleteCloudImage } from './api/mutations';
import { useCloudImages } from './api/queries';
import { ListToolbar } from './ListToolbar';
import { LoadError } from './LoadError';
import { useListFilters } from './use-list-filters';

const STATE_COLORS: Record<TCloudImage['state'], string> = { available: 'green', pending: 'gold', deregistered: 'default' };

export default function CloudImagesPage() {
  const { canWrite } = useAuth();
  const [modal, modalHolder] = Modal.useModal();
  const toast = useToast();
  const filters = useListFilters();
  const images = useCloudImages({ name: filters.search });
  const remove = useDeleteCloudImage();

  const confirmDelete = (image: TCloudImage) =>
    void modal.confirm({
      title: 'Delete cloud image',
      content: `Are you sure you want to delete this cloud image: ${image.name} (${image.id})`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => remove.mutateAsync(image).catch(() => undefined),
    });

  const onRefresh = async () => {
    const result = await images.refetch();
    if (result.isError) toast.error('Error occurred loading cloud images');
  };

  const columns: TableColumnsType<TCloudImage> = [
    { title: 'Id', dataIndex: 'id', width: 220, render: (id: string) => <Typography.Text copyable>{id}</Typography.Text> },
    { title: 'Name', dataIndex: 'name' },
    { title: 'Description', dataIndex: 'description', ellipsis: { showTitle: true } },
    { title: 'State', dataIndex: 'state', width: 120, render: (s: TCloudImage['state']) => <Tag color={STATE_COLORS[s]}>{s}</Tag> },
    { title: 'Region', dataIndex: 'region', width: 150 },
  ];
  if (canWrite) {
    columns.push({
      title: 'Actions',
      key: 'actions',
      width: 90,
      render: (_, i) => (
        <Tooltip title="Delete">
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${i.name}`} onClick={() => confirmDelete(i)} />
        </Tooltip>
      ),
    });
  }

  return (
    <Card title="Cloud Images">
      <ListToolbar text={filters.text} onText={filters.setText} searchLabel="Search cloud images" refreshing={images.isFetching && !images.isLoading} onRefresh={() => void onRefresh()} />
      {images.isError && <LoadError error={images.error} what="cloud images" />}
      <Table<TCloudImage>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={images.data ?? []}
        loading={images.isLoading}
        pagination={{ defaultPageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
      {modalHolder}
    </Card>
  );
}
