/**
 * A library file picker of the Component Versions card (spec 1 §2, §3, §4), bound
 * to the surrounding Form's fields:
 *
 * - main: `mainLibraryMode` (None, Skip, Latest Dev, Latest Prod, Select) and
 *   `mainLibraryFiles` (ids; several files may be chosen);
 * - account: `accountLibraryMode` (None, Skip, Latest Account, Select),
 *   `accountLibraryFiles` (ids, one file) and `accountLibraryFile` (its first id).
 *
 * Choosing Select opens the Select Library File dialog; closing it without a file
 * reverts to None. Files are listed only in Select mode: any other mode empties
 * them. Clearing the mode (or removing the last file) resets it to None with no
 * files. `installedFiles` (the files of both library fields, read once by
 * ComponentVersionsFields) names the chosen files and drives the dialog's
 * newer-installed warning.
 */
import { useState } from 'react';
import { Button, Flex, Form, Select, Tag, Tooltip } from 'antd';
import { FolderOpenOutlined } from '@ant-design/icons';
import { ACCOUNT_LIBRARY_MODES, MAIN_LIBRARY_MODES, type TLibraryFile } from '@fleet/contracts';
import { HiddenFields } from './form-binding';
import { MODE_LABELS } from './version-format';
import { WhenOpened } from '../../components/WhenOpened';
import { lazyNamed } from '../../lib/lazy-named';

/** The file dialog, loaded at its first opening (`WhenOpened`). */
const SelectLibraryFileDialog = lazyNamed(() => import('./SelectLibraryFileDialog'), 'SelectLibraryFileDialog');

type LibraryKind = 'main' | 'account';

const KIND = {
  main: { label: 'Main Library', modes: MAIN_LIBRARY_MODES, modeName: 'mainLibraryMode', filesName: 'mainLibraryFiles', multiple: true },
  account: { label: 'Account Library', modes: ACCOUNT_LIBRARY_MODES, modeName: 'accountLibraryMode', filesName: 'accountLibraryFiles', multiple: false },
} as const;

export interface LibraryFilesFieldProps {
  kind: LibraryKind;
  disabled?: boolean;
  /** The files of both library fields' ids (the account's current files until changed). */
  installedFiles: readonly TLibraryFile[];
}

export function LibraryFilesField({ kind, disabled, installedFiles }: LibraryFilesFieldProps) {
  const { label, modes, modeName, filesName, multiple } = KIND[kind];
  const form = Form.useFormInstance();
  const mode = (Form.useWatch(modeName, form) as string | undefined) ?? 'None';
  const ids = (Form.useWatch(filesName, form) as number[] | undefined) ?? [];
  // This field's files, in the order the server lists them.
  const files = installedFiles.filter((f) => ids.includes(f.id));
  const [dialogOpen, setDialogOpen] = useState(false);

  const write = (nextMode: string, nextIds: number[]) =>
    form.setFieldsValue({
      [modeName]: nextMode,
      [filesName]: nextIds,
      ...(kind === 'account' ? { accountLibraryFile: nextIds[0] ?? null } : {}),
    });

  const onModeChange = (next: string | undefined) => {
    if (next === 'Select') setDialogOpen(true);
    else write(next ?? 'None', []);
  };
  const onOk = (chosen: TLibraryFile[]) => {
    setDialogOpen(false);
    write(chosen.length > 0 ? 'Select' : 'None', chosen.map((f) => f.id));
  };
  const onCancel = () => {
    setDialogOpen(false);
    if (!(mode === 'Select' && ids.length > 0)) write('None', []);
  };
  const remove = (id: number) => {
    const rest = ids.filter((x) => x !== id);
    write(rest.length > 0 ? 'Select' : 'None', rest);
  };

  const byId = new Map(files.map((f) => [f.id, f]));
  return (
    <Form.Item label={label} style={{ marginBottom: 12 }}>
      <HiddenFields names={kind === 'account' ? [modeName, filesName, 'accountLibraryFile'] : [modeName, filesName]} />
      <Flex vertical gap={8}>
        <Flex gap={8}>
          <Select<string>
            aria-label={`${label} mode`}
            style={{ flex: 1 }}
            allowClear={mode !== 'None'}
            disabled={disabled}
            value={dialogOpen ? 'Select' : mode}
            onChange={onModeChange}
            options={modes.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
          />
          {mode === 'Select' && (
            <Tooltip title={multiple ? 'Choose files' : 'Choose a file'}>
              <Button aria-label={`Choose ${label} file`} icon={<FolderOpenOutlined aria-hidden />} disabled={disabled} onClick={() => setDialogOpen(true)} />
            </Tooltip>
          )}
        </Flex>
        {mode === 'Select' && ids.length > 0 && (
          <Flex wrap gap={4} aria-label={`${label} files`}>
            {ids.map((id) => (
              <Tag
                key={id}
                closable={!disabled}
                onClose={(e) => {
                  e.preventDefault();
                  remove(id);
                }}
              >
                {byId.get(id)?.name ?? `File ${id}`}
              </Tag>
            ))}
          </Flex>
        )}
      </Flex>
      <WhenOpened open={dialogOpen}>
        <SelectLibraryFileDialog
          open={dialogOpen}
          title={`Select ${label} File`}
          multiple={multiple}
          initialFiles={mode === 'Select' ? files : []}
          installedFiles={installedFiles}
          onOk={onOk}
          onCancel={onCancel}
        />
      </WhenOpened>
    </Form.Item>
  );
}
