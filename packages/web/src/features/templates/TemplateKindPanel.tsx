/**
 * One kind of template in the Manage Templates dialog (spec 1 §2 Manage
 * Templates dialog, §5 Templates, §8, §9 page size 7):
 *
 * - Create New (write permission): a name and a Public switch; saves the current
 *   values of the kind's form as a new template. An empty name is silently
 *   skipped (spec 1 §5).
 * - Filters: search (part of the name, any case), Version only (names starting
 *   with 'v'), and Template / Account (saved templates, or the template accounts
 *   whose settings can be loaded too).
 * - A table of 7 per page. Select loads the row's values into the form
 *   ('Template loaded'); Save (write) replaces a template's settings with the
 *   form's current values; Delete (write) asks 'Are you sure you want to delete
 *   {name}' (Yes/No). Template accounts can only be selected.
 *
 * A list that fails to load is an empty table with a note and no toast (spec 1 §8).
 */
import { useState } from 'react';
import { Button, Flex, Input, Modal, Radio, Space, Switch, Table, Tag, Typography, type FormInstance, type TableColumnsType } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { TEMPLATE_PAGE_SIZE, type TTemplate, type TTemplateType } from '@fleet/contracts';
import { formatDateTime } from '../../lib/format';
import { useCreateTemplate, useDeleteTemplate, useUpdateTemplate } from './api/mutations';
import { useTemplates } from './api/queries';
import { filterTemplates, formValuesToTemplate, KIND_LABELS, type LoadOptions, type TemplateSource } from './template-values';
import { useLoadTemplate } from './use-load-template';

interface Props {
  kind: TTemplateType;
  /** The section form the kind loads into and saves from. */
  form: FormInstance;
  canWrite: boolean;
  loadOptions: LoadOptions;
}

/** Height of a small table with a full page of rows and its pager, px. */
const TABLE_MIN_HEIGHT = 382;

const rowKey = (t: TTemplate) => `${t.isTemplate ? 'template' : 'account'}-${t.id}`;

export function TemplateKindPanel({ kind, form, canWrite, loadOptions }: Props) {
  const templates = useTemplates(kind);
  const create = useCreateTemplate(kind);
  const update = useUpdateTemplate(kind);
  const remove = useDeleteTemplate(kind);
  const loadTemplate = useLoadTemplate();
  const [modal, modalHolder] = Modal.useModal();

  const [newName, setNewName] = useState('');
  const [isPublic, setIsPublic] = useState(true);
  const [search, setSearch] = useState('');
  const [versionOnly, setVersionOnly] = useState(false);
  const [source, setSource] = useState<TemplateSource>('template');
  const [page, setPage] = useState(1);

  const rows = filterTemplates(templates.data ?? [], { search, versionOnly, source });
  const lastPage = Math.max(1, Math.ceil(rows.length / TEMPLATE_PAGE_SIZE));
  const currentPage = Math.min(page, lastPage);
  // Each filter change starts again at the first page.
  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const currentValues = () => formValuesToTemplate(kind, form.getFieldsValue(true) as Record<string, unknown>);

  const createNew = () => {
    const name = newName.trim();
    if (name === '') return; // spec 1 §5: saving needs a name, silently skipped otherwise
    create.mutate({ name, isPublic, ...currentValues() }, { onSuccess: () => setNewName('') });
  };

  const save = (t: TTemplate) => update.mutate({ id: t.id, body: { name: t.name, isPublic: t.isPublic, ...currentValues() } });

  const confirmDelete = (t: TTemplate) =>
    void modal.confirm({
      title: `Are you sure you want to delete ${t.name}`,
      okText: 'Yes',
      okButtonProps: { danger: true },
      cancelText: 'No',
      onOk: () => remove.mutateAsync(t.id).catch(() => undefined),
    });

  const columns: TableColumnsType<TTemplate> = [
    { title: 'Name', dataIndex: 'name', key: 'name', ellipsis: true },
    ...(source === 'template'
      ? ([
          {
            title: 'Visibility',
            key: 'isPublic',
            width: 110,
            render: (_, t) => (t.isPublic ? <Tag color="green">Public</Tag> : <Tag>Private</Tag>),
          },
          { title: 'Owner', dataIndex: 'owner', key: 'owner', width: 140, render: (owner: string | null) => owner ?? '—' },
          { title: 'Updated', dataIndex: 'updatedAt', key: 'updatedAt', width: 160, render: (at: string | null) => formatDateTime(at) },
        ] satisfies TableColumnsType<TTemplate>)
      : []),
    {
      title: 'Actions',
      key: 'actions',
      width: canWrite && source === 'template' ? 200 : 100,
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" aria-label={`Select ${t.name}`} onClick={() => loadTemplate(kind, t, form, loadOptions)}>
            Select
          </Button>
          {canWrite && t.isTemplate && (
            <>
              <Button type="link" size="small" aria-label={`Save ${t.name}`} disabled={update.isPending} onClick={() => save(t)}>
                Save
              </Button>
              <Button type="link" size="small" danger aria-label={`Delete ${t.name}`} onClick={() => confirmDelete(t)}>
                Delete
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  const label = KIND_LABELS[kind];
  return (
    <Flex vertical gap={12}>
      {canWrite && (
        <Flex gap={8} align="center" wrap role="group" aria-label={`New ${label} template`}>
          <Input
            aria-label="New template name"
            placeholder="New template name"
            maxLength={200}
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            onPressEnter={createNew}
            style={{ flex: '1 1 240px', maxWidth: 360 }}
          />
          <Space size={6}>
            <Switch aria-label="Public" checked={isPublic} onChange={setIsPublic} />
            <Typography.Text>Public</Typography.Text>
          </Space>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} loading={create.isPending} onClick={createNew}>
            Create New
          </Button>
        </Flex>
      )}
      <Flex gap={12} align="center" wrap role="group" aria-label="Template filters">
        <Input
          aria-label="Search templates"
          placeholder="Search templates"
          prefix={<SearchOutlined aria-hidden />}
          allowClear
          value={search}
          onChange={(e) => filtered(setSearch)(e.target.value)}
          style={{ flex: '1 1 240px', maxWidth: 360 }}
        />
        <Space size={6}>
          <Switch aria-label="Version only" checked={versionOnly} onChange={filtered(setVersionOnly)} />
          <Typography.Text>Version only</Typography.Text>
        </Space>
        <Radio.Group
          aria-label="Show"
          optionType="button"
          value={source}
          onChange={(e) => filtered(setSource)(e.target.value as TemplateSource)}
          options={[
            { label: 'Template', value: 'template' },
            { label: 'Account', value: 'account' },
          ]}
        />
      </Flex>
      {/* Room for a full page of 7, so the dialog does not change height between kinds and pages. */}
      <div style={{ minHeight: TABLE_MIN_HEIGHT }}>
        <Table<TTemplate>
          aria-label={`${label} templates`}
          size="small"
          rowKey={rowKey}
          columns={columns}
          dataSource={rows}
          loading={templates.isPending}
          locale={{
            emptyText: templates.isPending ? (
              ' '
            ) : (
              <Typography.Text type="secondary">
                {templates.isError ? 'Templates could not be loaded' : source === 'template' ? 'No templates' : 'No template accounts'}
              </Typography.Text>
            ),
          }}
          pagination={{
            current: currentPage,
            pageSize: TEMPLATE_PAGE_SIZE,
            showSizeChanger: false,
            hideOnSinglePage: false,
            showTotal: (n, [from, to]) => `${from}-${to} of ${n}`,
            onChange: setPage,
          }}
        />
      </div>
      {modalHolder}
    </Flex>
  );
}
