/**
 * Batch Component Configs and Deployer Configs of the selected machines (spec 3
 * §2.8, §7 Updater and batch, §8), at most 200 machines
 * (`MAX_BATCH_CONFIG_MACHINES`).
 *
 * Loads the machines' current configurations (`GET
 * /machines/component-configs?ids=…` or `deployer-configs`) and their defaults
 * (`GET /machines/default-component-configs?ids=…` or
 * `default-deployer-configs`), one call each, and lists every key any machine
 * has or its defaults have (`batchConfigKeys`): the value when all machines
 * share it, else "Differs per machine" (or "Not set" when no machine has it).
 * Each value is edited by its definition's dataType (`ConfigValueInput`, as in
 * the single-machine editor); protected keys are read-only. Preview runs `PUT
 * /machines/batch/component-configs` (or deployer) as a dry run, so it lists
 * only the keys edited here; Apply saves: each machine keeps its current
 * configuration with only the values changed here (`machineConfigsToSave`:
 * its own keys are kept, an edited key it lacks is added). Toasts: 'Component
 * configs for machines have been saved' / 'Error occurred updating component
 * configs for machines' (deployer alike).
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Modal, Spin, Table, Tag, Typography, type TableProps } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { MAX_BATCH_CONFIG_MACHINES, type TBatchResult, type TConfigDataTypeName } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { CONFIG_FIELD, type ConfigKind } from '../../machines/api/keys';
import { useConfigDefinitions } from '../../machines/api/queries';
import { byKey, jsonText, parseJson, splitKey, typeName, typeOfValue, valueProblem } from '../../machines/components/config-rules';
import { ConfigValueInput } from '../../machines/components/ConfigValueInput';
import { useBatchConfigs } from '../api/mutations';
import { updaterKeys } from '../api/keys';
import { batchConfigKeys, machineConfigsToSave, type MachineConfig, type SharedValue } from './batch-configs';
import { PreviewModal } from './PreviewModal';

export const BATCH_CONFIG_TITLES: Record<ConfigKind, string> = { component: 'Batch Component Configs', deployer: 'Batch Deployer Configs' };

interface Props {
  kind: ConfigKind;
  machineIds: number[];
  onClose(): void;
}

interface Row {
  key: string;
  type: TConfigDataTypeName;
  protected: boolean;
  /** The machines' shared current value, `differs`, or `unset` (on no machine). */
  shared: SharedValue;
}

/** `GET /machines/{path}?ids=…`: one configuration per machine, in the order asked. */
async function fetchConfigs(kind: ConfigKind, path: string, ids: number[], signal: AbortSignal): Promise<MachineConfig[]> {
  const answer = await api.get<Record<string, unknown>[]>(`machines/${path}`, { searchParams: { ids: ids.join(',') }, signal });
  return answer.map((item) => ({ machineId: Number(item.machineId), config: (item[CONFIG_FIELD[kind]] ?? {}) as Record<string, unknown> }));
}

/** `GET /machines/default-{kind}-configs?ids=…`: each machine's default configuration. */
function useDefaultConfigs(kind: ConfigKind, ids: number[]) {
  return useQuery({
    queryKey: updaterKeys.defaultConfigs(kind, ids),
    queryFn: ({ signal }) => fetchConfigs(kind, `default-${kind}-configs`, ids, signal),
    enabled: ids.length > 0 && ids.length <= MAX_BATCH_CONFIG_MACHINES,
    retry: false,
  });
}

/** `GET /machines/{kind}-configs?ids=…`: each machine's current configuration, as saved now. */
function useCurrentConfigs(kind: ConfigKind, ids: number[]) {
  return useQuery({
    queryKey: updaterKeys.currentConfigs(kind, ids),
    queryFn: ({ signal }) => fetchConfigs(kind, `${kind}-configs`, ids, signal),
    enabled: ids.length > 0 && ids.length <= MAX_BATCH_CONFIG_MACHINES,
    retry: false,
  });
}

export function BatchConfigDialog({ kind, machineIds, onClose }: Props) {
  const tooMany = machineIds.length > MAX_BATCH_CONFIG_MACHINES;
  const defaults = useDefaultConfigs(kind, machineIds);
  const current = useCurrentConfigs(kind, machineIds);
  const definitions = useConfigDefinitions(kind);
  const save = useBatchConfigs(kind);
  const [edits, setEdits] = useState<Record<string, unknown>>({});
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<TBatchResult | undefined>(undefined);

  const rows = useMemo((): Row[] => {
    const defs = byKey(definitions.data ?? []);
    const machines = current.data ?? [];
    return batchConfigKeys(machines, defaults.data ?? []).map(({ key, shared }) => {
      const def = defs.get(key);
      const sample = machines.find((c) => key in c.config)?.config[key] ?? defaults.data?.find((c) => key in c.config)?.config[key];
      return { key, shared, type: def ? typeName(def.dataType) : typeOfValue(sample), protected: def?.protected ?? false };
    });
  }, [current.data, defaults.data, definitions.data]);

  const problemOf = (row: Row) => {
    if (!(row.key in edits)) return undefined;
    const text = texts[row.key];
    if (row.type === 'json' && text !== undefined) return parseJson(text) === undefined ? 'Invalid JSON' : undefined;
    return valueProblem(edits[row.key], row.type);
  };
  const invalid = rows.some((r) => problemOf(r) !== undefined);

  const send = (dryRun: boolean) =>
    save.mutate({ configs: machineConfigsToSave(current.data ?? [], edits), dryRun }, { onSuccess: (result) => (dryRun ? setPreview(result) : onClose()) });

  const columns: TableProps<Row>['columns'] = [
    {
      key: 'component',
      title: 'Component',
      width: 150,
      render: (_, r) => <Typography.Text strong>{splitKey(r.key).rootKey}</Typography.Text>,
    },
    {
      key: 'key',
      title: 'Key',
      width: 220,
      render: (_, r) => (
        <>
          {splitKey(r.key).subKey}
          {r.protected && (
            <Tag icon={<LockOutlined aria-hidden />} style={{ marginInlineStart: 6 }}>
              Protected
            </Tag>
          )}
        </>
      ),
    },
    { key: 'type', title: 'Type', width: 90, render: (_, r) => <Tag>{r.type}</Tag> },
    {
      key: 'value',
      title: 'Value',
      render: (_, r) => {
        const edited = r.key in edits;
        if (!edited && typeof r.shared === 'string') {
          return (
            <Button size="small" onClick={() => setEdits((e) => ({ ...e, [r.key]: null }))} disabled={r.protected} aria-label={`Set ${r.key} on every machine`}>
              {r.shared === 'differs' ? 'Differs per machine' : 'Not set'}: set one value
            </Button>
          );
        }
        const value = edited ? edits[r.key] : typeof r.shared === 'string' ? undefined : r.shared.value;
        const problem = problemOf(r);
        return (
          <>
            <ConfigValueInput
              configKey={r.key}
              type={r.type}
              value={value}
              text={texts[r.key] ?? jsonText(value)}
              readOnly={r.protected}
              invalid={problem !== undefined}
              onChange={(v) => setEdits((e) => ({ ...e, [r.key]: v }))}
              onJsonText={(t) => {
                setTexts((x) => ({ ...x, [r.key]: t }));
                const parsed = parseJson(t);
                if (parsed !== undefined) setEdits((e) => ({ ...e, [r.key]: parsed }));
              }}
            />
            {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
          </>
        );
      },
    },
  ];

  const loading = current.isLoading || defaults.isLoading || definitions.isLoading;
  const failed = current.isError || defaults.isError;
  return (
    <Modal
      open
      width={1000}
      title={`${BATCH_CONFIG_TITLES[kind]}: ${machineIds.length} machines`}
      okText="Preview"
      onOk={() => send(true)}
      onCancel={onClose}
      okButtonProps={{ disabled: tooMany || !current.isSuccess || !defaults.isSuccess || invalid, loading: save.isPending && !preview }}
      destroyOnHidden
    >
      {tooMany ? (
        <Alert type="warning" showIcon title={`Choose at most ${MAX_BATCH_CONFIG_MACHINES} machines to edit their configs together.`} />
      ) : loading ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : failed ? (
        <Alert
          type="error"
          showIcon
          title={`The ${current.isError ? 'current' : 'default'} configs could not be loaded`}
          action={
            <Button size="small" onClick={() => void (current.isError ? current.refetch() : defaults.refetch())}>
              Retry
            </Button>
          }
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            Each machine keeps its current configuration with only the values you change here ({Object.keys(edits).length} changed).
          </Typography.Paragraph>
          <Table<Row>
            size="small"
            rowKey="key"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ y: '50vh' }}
            locale={{ emptyText: 'No keys' }}
            aria-label={`${BATCH_CONFIG_TITLES[kind]} of the selected machines`}
          />
        </>
      )}
      <PreviewModal
        title={`${BATCH_CONFIG_TITLES[kind]}: changes`}
        result={preview}
        applying={save.isPending}
        onApply={() => send(false)}
        onCancel={() => setPreview(undefined)}
      />
    </Modal>
  );
}
