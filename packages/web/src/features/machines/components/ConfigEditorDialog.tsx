/**
 * Component Configs and Deployer Config editors (spec 2 §2.3, §5, §8): the
 * machine's `config.componentConfig` or `config.deployerConfig` as a key/value
 * list grouped by component (root key), each value edited by its definition's
 * dataType (`ConfigValueInput`), with the machine's catalogue default beside it.
 *
 * - Protected keys are read-only and cannot be removed; other keys can be removed.
 * - Adding a key (`AddConfigKeyForm`, rules in `config-rules.ts`): a key defined
 *   with another dataType is silently aborted; an unknown key is first created
 *   as a definition (`POST /component-configs` or `/deployer-configs`: rootKey,
 *   subKey, dataType), then given the default of its type; a known key gets the
 *   machine's default, else the default of its type.
 * - Save sends the whole configuration (`PUT /machines/{id}/component-config` or
 *   `/deployer-config`); it is enabled once something changed and every value
 *   fits its type. On an unmanaged or panicked machine it warns first
 *   (`useOperationWarning`). Toasts: 'Machine component config has been saved' /
 *   'Error occurred saving machine component config' (deployer alike). The
 *   dialog closes on success and stays open on error.
 *
 * Once something changed, Esc and a click outside no longer close the dialog
 * (Cancel and the close button still do). Mounted per opening (the parent
 * renders it only while open), so it starts from the machine's configuration
 * at that moment.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Modal, Spin, Table, Tag, Typography, type TableProps } from 'antd';
import { DeleteOutlined, LockOutlined } from '@ant-design/icons';
import type { TConfigDataTypeName, TMachine } from '@fleet/contracts';
import { CONFIG_FIELD, type ConfigKind } from '../api/keys';
import { useCreateConfigDefinition, useSaveMachineConfig } from '../api/mutations';
import { useConfigDefinitions, useDefaultConfig } from '../api/queries';
import { AddConfigKeyForm, type AddKeyInput } from './AddConfigKeyForm';
import {
  byKey,
  decideAdd,
  defaultOfType,
  jsonText,
  parseJson,
  sameConfig,
  splitKey,
  storedType,
  typeName,
  typeOfValue,
  valueProblem,
  type AddDecision,
} from './config-rules';
import { ConfigValueInput } from './ConfigValueInput';
import { useOperationWarning } from './operation-warning';

export const CONFIG_DIALOG_TITLES: Record<ConfigKind, string> = { component: 'Component Configs', deployer: 'Deployer Config' };

interface Props {
  kind: ConfigKind;
  machine: TMachine;
  onClose(): void;
}

interface Row {
  key: string;
  rootKey: string;
  subKey: string;
  type: TConfigDataTypeName;
  protected: boolean;
  /** Rows of its component this row spans in the Component column (0: inside the group). */
  span: number;
}

/** A default value as one line of text. */
const shown = (value: unknown) => (typeof value === 'string' ? (value === '' ? '""' : value) : JSON.stringify(value));

export function ConfigEditorDialog({ kind, machine, onClose }: Props) {
  const initial = machine.config[CONFIG_FIELD[kind]];
  const [entries, setEntries] = useState<Record<string, unknown>>(() => ({ ...initial }));
  /** Text of json values as typed; a key is here only once edited. */
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<string | undefined>(undefined);
  const definitions = useConfigDefinitions(kind);
  const defaults = useDefaultConfig(kind, machine.id);
  const createDefinition = useCreateConfigDefinition(kind);
  const save = useSaveMachineConfig(kind);
  const [warnFirst, warningHolder] = useOperationWarning();

  const defs = useMemo(() => byKey(definitions.data ?? []), [definitions.data]);
  const present = useMemo(() => new Set(Object.keys(entries)), [entries]);

  const rows = useMemo(() => {
    const keys = Object.keys(entries).sort();
    return keys.map((key, i): Row => {
      const { rootKey, subKey } = splitKey(key);
      const def = defs.get(key);
      let span = 0;
      if (i === 0 || splitKey(keys[i - 1]!).rootKey !== rootKey) {
        span = 1;
        while (i + span < keys.length && splitKey(keys[i + span]!).rootKey === rootKey) span += 1;
      }
      return { key, rootKey, subKey, type: def ? typeName(def.dataType) : typeOfValue(entries[key]), protected: def?.protected ?? false, span };
    });
  }, [entries, defs]);

  const problemOf = (row: Row): string | undefined => {
    const text = texts[row.key];
    if (row.type === 'json' && text !== undefined) return parseJson(text) === undefined ? 'Invalid JSON' : undefined;
    return valueProblem(entries[row.key], row.type);
  };
  const invalid = rows.some((r) => !r.protected && problemOf(r) !== undefined);
  const dirty = !sameConfig(entries, initial);

  // Bring a key just added into view: the list is sorted, so it may land anywhere.
  useEffect(() => {
    if (added) document.querySelector(`[data-config-key="${CSS.escape(added)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [added]);

  const setValue = (key: string, value: unknown) => setEntries((e) => ({ ...e, [key]: value }));
  const setText = (key: string, text: string) => {
    setTexts((t) => ({ ...t, [key]: text }));
    const parsed = parseJson(text);
    if (parsed !== undefined) setValue(key, parsed);
  };
  const remove = (key: string) => {
    setEntries(({ [key]: _removed, ...rest }) => rest);
    setTexts(({ [key]: _text, ...rest }) => rest);
  };

  const onAdd = async (input: AddKeyInput): Promise<AddDecision | 'failed'> => {
    const decision = decideAdd(input, defs, present);
    if (decision.kind !== 'known' && decision.kind !== 'unknown') return decision;
    const key = `${input.rootKey}.${input.subKey}`;
    if (decision.kind === 'unknown') {
      try {
        await createDefinition.mutateAsync({ rootKey: input.rootKey, subKey: input.subKey, dataType: storedType(input.dataType) });
      } catch {
        return 'failed';
      }
    }
    const machineDefault = decision.kind === 'known' ? defaults.data?.[key] : undefined;
    setValue(key, machineDefault !== undefined ? machineDefault : defaultOfType(input.dataType));
    setAdded(key);
    return decision;
  };

  const submit = () => warnFirst(machine, () => save.mutate({ machine, config: entries }, { onSuccess: onClose }));

  const columns: TableProps<Row>['columns'] = [
    {
      key: 'rootKey',
      title: 'Component',
      width: 160,
      onCell: (r) => ({ rowSpan: r.span }),
      render: (_, r) => <Typography.Text strong>{r.rootKey}</Typography.Text>,
    },
    {
      key: 'subKey',
      title: 'Key',
      width: 220,
      render: (_, r) => (
        <span data-config-key={r.key}>
          <Typography.Text style={{ wordBreak: 'break-all' }}>{r.subKey}</Typography.Text>
          {r.protected && (
            <Tag icon={<LockOutlined aria-hidden />} style={{ marginInlineStart: 6 }}>
              Protected
            </Tag>
          )}
        </span>
      ),
    },
    { key: 'type', title: 'Type', width: 90, render: (_, r) => <Tag>{r.type}</Tag> },
    {
      key: 'value',
      title: 'Value',
      render: (_, r) => {
        const problem = r.protected ? undefined : problemOf(r);
        return (
          <>
            <ConfigValueInput
              configKey={r.key}
              type={r.type}
              value={entries[r.key]}
              text={texts[r.key] ?? jsonText(entries[r.key])}
              readOnly={r.protected}
              invalid={problem !== undefined}
              onChange={(v) => setValue(r.key, v)}
              onJsonText={(t) => setText(r.key, t)}
            />
            {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
          </>
        );
      },
    },
    {
      key: 'default',
      title: 'Default',
      width: 170,
      ellipsis: true,
      render: (_, r) =>
        defaults.data && r.key in defaults.data ? (
          <Typography.Text type="secondary" title={shown(defaults.data[r.key])}>
            {shown(defaults.data[r.key])}
          </Typography.Text>
        ) : null,
    },
    {
      key: 'remove',
      width: 48,
      render: (_, r) =>
        r.protected ? null : (
          <Button type="text" size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={`Remove ${r.key}`} onClick={() => remove(r.key)} />
        ),
    },
  ];

  return (
    <Modal
      open
      width={1000}
      title={`${CONFIG_DIALOG_TITLES[kind]}: ${machine.name}`}
      okText="Save"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ disabled: !definitions.isSuccess || !dirty || invalid, loading: save.isPending }}
      // Once edited, Esc (also meant for an input's suggestions) or a stray click outside must not drop the edits.
      keyboard={!dirty}
      maskClosable={!dirty}
      destroyOnHidden
    >
      {definitions.isLoading ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : definitions.isError ? (
        <Alert
          type="error"
          showIcon
          title="The config definitions could not be loaded"
          action={
            <Button size="small" onClick={() => void definitions.refetch()}>
              Retry
            </Button>
          }
        />
      ) : (
        <>
          <Table<Row>
            size="small"
            rowKey="key"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ y: '50vh' }}
            locale={{ emptyText: 'No keys yet' }}
            aria-label={`${CONFIG_DIALOG_TITLES[kind]} of ${machine.name}`}
          />
          <div style={{ marginTop: 16 }}>
            <AddConfigKeyForm
              idPrefix={`${kind}-config-add`}
              definitions={definitions.data ?? []}
              definitionsByKey={defs}
              present={present}
              adding={createDefinition.isPending}
              onAdd={onAdd}
            />
          </div>
        </>
      )}
      {warningHolder}
    </Modal>
  );
}
