/**
 * The Select Library File dialog (spec 1 §2 Instance Settings card, §9; spec 3
 * §3 Library file, §7 `GET library/files`, `GET library/packages`).
 *
 * A searchable (500 ms debounce), sortable (on the server: name, package, type,
 * version, added by, date; newest first by default), paged table of library
 * files, `floor(550 / 45)` = 12 a page (spec 1 §9: the 550 px table height over
 * 45 px rows). Filters: version (the IRMN versions), type (Dev, Prod, Custom),
 * package, LCT only (files added by 'lct2'), latest only (the newest file of
 * each package and type), hide old files (dated more than a year ago; on by
 * default). Files added by 'lct2' carry an LCT tag.
 *
 * `multiple` picks several files with checkboxes (main library), else one with a
 * radio (account library); the choice survives paging and starts from
 * `initialFiles`. OK is disabled until a file is chosen and answers the chosen
 * files (in the order chosen). A row warns when one of `installedFiles` (the
 * account's current library files) of the same package is newer than it.
 */
import { useState } from 'react';
import { Flex, Input, Modal, Select, Switch, Table, Tag, Tooltip, Typography, type TableColumnsType, type TablePaginationConfig } from 'antd';
import type { SortOrder, SorterResult } from 'antd/es/table/interface';
import { WarningOutlined } from '@ant-design/icons';
import { LIBRARY_FILE_TYPES, LIBRARY_SORT_FIELDS, type TLibraryFile, type TListLibraryFilesQuery } from '@fleet/contracts';
import { formatDateTime } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useIrmnVersions } from '../catalogues/api/queries';
import { useLibraryFiles, useLibraryPackages } from './api/queries';
import { LIBRARY_DIALOG_PAGE_SIZE, newerInstalled } from './library-files';
import './software-versions.css';

/** Width of the dialog, px (spec 1 §9 dialog widths). */
export const LIBRARY_DIALOG_WIDTH = 1200;

type SortField = (typeof LIBRARY_SORT_FIELDS)[number];
type LibraryFileType = (typeof LIBRARY_FILE_TYPES)[number];

export interface SelectLibraryFileDialogProps {
  open: boolean;
  /** Dialog title, e.g. "Select Main Library File". */
  title?: string;
  multiple?: boolean;
  /** The files chosen when the dialog opens. */
  initialFiles?: readonly TLibraryFile[];
  /** The account's current library files: a row warns when one of its package is newer. */
  installedFiles?: readonly TLibraryFile[];
  onOk(files: TLibraryFile[]): void;
  onCancel(): void;
}

export function SelectLibraryFileDialog({
  open,
  title = 'Select Library File',
  multiple = false,
  initialFiles = [],
  installedFiles = [],
  onOk,
  onCancel,
}: SelectLibraryFileDialogProps) {
  const initial = () => (multiple ? [...initialFiles] : initialFiles.slice(0, 1));
  const [chosen, setChosen] = useState<TLibraryFile[]>(initial);
  // Every opening starts from the picker's files (the filters start afresh too:
  // the table is destroyed when hidden).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setChosen(initial());
  }

  const choose = (file: TLibraryFile, on: boolean) =>
    setChosen((before) => {
      if (!multiple) return on ? [file] : [];
      const rest = before.filter((f) => f.id !== file.id);
      return on ? [...rest, file] : rest;
    });

  return (
    <Modal
      open={open}
      title={title}
      width={LIBRARY_DIALOG_WIDTH}
      onCancel={onCancel}
      destroyOnHidden
      okText="OK"
      okButtonProps={{ disabled: chosen.length === 0 }}
      onOk={() => onOk(chosen)}
      footer={(buttons) => (
        <div className="select-version-footer">
          <Typography.Text type="secondary" className="select-version-chosen">
            {chosen.length === 0 ? 'No file chosen' : `Chosen: ${chosen.map((f) => f.name).join(', ')}`}
          </Typography.Text>
          {buttons}
        </div>
      )}
    >
      <LibraryFileTable multiple={multiple} chosen={chosen} installedFiles={installedFiles} onChoose={choose} />
    </Modal>
  );
}

interface LibraryFileTableProps {
  multiple: boolean;
  chosen: readonly TLibraryFile[];
  installedFiles: readonly TLibraryFile[];
  onChoose(file: TLibraryFile, on: boolean): void;
}

function LibraryFileTable({ multiple, chosen, installedFiles, onChoose: choose }: LibraryFileTableProps) {
  const [text, setText] = useState('');
  const [version, setVersion] = useState<string | undefined>(undefined);
  const [type, setType] = useState<LibraryFileType | undefined>(undefined);
  const [pkg, setPkg] = useState<string | undefined>(undefined);
  const [lctOnly, setLctOnly] = useState(false);
  const [latestOnly, setLatestOnly] = useState(false);
  const [hideOld, setHideOld] = useState(true);
  const [sort, setSort] = useState<{ field: SortField; descending: boolean }>({ field: 'date', descending: true });
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(text.trim());

  // A new filter or sort starts again at the first page.
  const [seenFilters, setSeenFilters] = useState('');
  const filterKey = JSON.stringify([search, version, type, pkg, lctOnly, latestOnly, hideOld, sort]);
  if (filterKey !== seenFilters) {
    setSeenFilters(filterKey);
    setPage(1);
  }

  const query: Omit<TListLibraryFilesQuery, 'ids'> = {
    search: search || undefined,
    version,
    type,
    package: pkg,
    lctOnly: lctOnly ? 'true' : undefined,
    latestOnly: latestOnly ? 'true' : undefined,
    hideOld: hideOld ? 'true' : undefined,
    sortBy: sort.field,
    sortDirection: sort.descending ? 'Descending' : 'Ascending',
    startIndex: (page - 1) * LIBRARY_DIALOG_PAGE_SIZE,
    limit: LIBRARY_DIALOG_PAGE_SIZE,
  };
  const files = useLibraryFiles(query);
  const versions = useIrmnVersions();
  const packages = useLibraryPackages();

  const sortOrder = (field: SortField): SortOrder => (sort.field === field ? (sort.descending ? 'descend' : 'ascend') : null);
  const sortable = (field: SortField) => ({ sorter: true, sortOrder: sortOrder(field), sortDirections: ['ascend', 'descend'] as SortOrder[] });

  const columns: TableColumnsType<TLibraryFile> = [
    {
      title: 'Name',
      dataIndex: 'name',
      key: 'name',
      ...sortable('name'),
      render: (name: string, file) => {
        const newer = newerInstalled(file, installedFiles);
        return (
          <>
            {name}
            {newer && (
              <Tooltip title={`An installed ${file.package} file is newer: ${newer.name}`}>
                <WarningOutlined className="library-file-warning" aria-label={`Installed ${file.package} file is newer`} />
              </Tooltip>
            )}
          </>
        );
      },
    },
    { title: 'Package', dataIndex: 'package', key: 'package', width: 130, ...sortable('package') },
    { title: 'Type', dataIndex: 'type', key: 'type', width: 90, ...sortable('type') },
    { title: 'Version', dataIndex: 'version', key: 'version', width: 100, ...sortable('version') },
    {
      title: 'Added by',
      dataIndex: 'addedBy',
      key: 'addedBy',
      width: 150,
      ...sortable('addedBy'),
      render: (addedBy: string, file) => (
        <>
          {addedBy} {file.isLct && <Tag color="blue">LCT</Tag>}
        </>
      ),
    },
    { title: 'Date', dataIndex: 'date', key: 'date', width: 150, ...sortable('date'), render: (iso: string) => formatDateTime(iso) },
  ];

  const onTableChange = (pagination: TablePaginationConfig, _filters: unknown, sorter: SorterResult<TLibraryFile> | SorterResult<TLibraryFile>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = (s?.columnKey ?? s?.field) as SortField | undefined;
    if (s?.order && field && (field !== sort.field || (s.order === 'descend') !== sort.descending)) {
      setSort({ field, descending: s.order === 'descend' });
    } else if (!s?.order && sort.field !== 'date') {
      setSort({ field: 'date', descending: true });
    } else {
      setPage(pagination.current ?? 1);
    }
  };

  return (
    <Flex vertical gap={12}>
      <Flex wrap gap={12} align="center">
        <Input
          aria-label="Search library files"
          type="search"
          style={{ width: 240 }}
          allowClear
          placeholder="Name or package"
          maxLength={200}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <Select
          aria-label="Version"
          style={{ width: 130 }}
          allowClear
          placeholder="Any version"
          value={version}
          onChange={(v: string | undefined) => setVersion(v)}
          options={(versions.data ?? []).map((v) => ({ value: v.name, label: v.name }))}
        />
        <Select
          aria-label="Type"
          style={{ width: 120 }}
          allowClear
          placeholder="Any type"
          value={type}
          onChange={(v: LibraryFileType | undefined) => setType(v)}
          options={LIBRARY_FILE_TYPES.map((t) => ({ value: t, label: t }))}
        />
        <Select
          aria-label="Package"
          style={{ width: 160 }}
          allowClear
          showSearch
          placeholder="Any package"
          value={pkg}
          onChange={(v: string | undefined) => setPkg(v)}
          options={(packages.data ?? []).map((p) => ({ value: p, label: p }))}
        />
        <FilterSwitch label="LCT only" checked={lctOnly} onChange={setLctOnly} />
        <FilterSwitch label="Latest only" checked={latestOnly} onChange={setLatestOnly} />
        <FilterSwitch label="Hide old files" checked={hideOld} onChange={setHideOld} />
      </Flex>
      <Table<TLibraryFile>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={files.data?.items ?? []}
        loading={files.isFetching}
        onChange={onTableChange}
        rowSelection={{
          type: multiple ? 'checkbox' : 'radio',
          selectedRowKeys: chosen.map((f) => f.id),
          onSelect: (file, on) => choose(file, on),
          onSelectAll: (on, _rows, changed) => changed.forEach((f) => choose(f, on)),
          columnWidth: 36,
        }}
        onRow={(file) => ({
          onClick: () => choose(file, multiple ? !chosen.some((f) => f.id === file.id) : true),
          style: { cursor: 'pointer' },
        })}
        locale={{ emptyText: files.isError ? 'Library files could not be loaded' : 'No library files' }}
        pagination={{
          current: page,
          pageSize: LIBRARY_DIALOG_PAGE_SIZE,
          total: files.data?.totalItems ?? 0,
          showSizeChanger: false,
          showTotal: (total, [from, to]) => `${from}-${to} of ${total} files`,
        }}
      />
    </Flex>
  );
}

/** A small switch with its label beside it, for a dialog's filter row. */
export function FilterSwitch({ label, checked, onChange }: { label: string; checked: boolean; onChange(on: boolean): void }) {
  return (
    <label>
      <Flex gap={6} align="center">
        <Switch size="small" checked={checked} onChange={onChange} aria-label={label} />
        {label}
      </Flex>
    </label>
  );
}
