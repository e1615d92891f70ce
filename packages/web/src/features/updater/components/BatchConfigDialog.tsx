/**
 * Batch Component Configs and Deployer Configs of the selected machines (spec 3
 * §2.8, §7 Updater and batch, §8), at most 200 machines
 * (`MAX_BATCH_CONFIG_MACHINES`).
 *
 * Loads the machines' default configurations in one call (`GET
 * /machines/default-component-configs?ids=…` or `default-deployer-configs`) and
 * lists every key any of them has: the value when all machines share it, else
 * "Differs per machine". Each value is edited by its definition's dataType
 * (`ConfigValueInput`, as in the single-machine editor); protected keys are
 * read-only. Preview runs `PUT /machines/batch/component-configs` (or
 * deployer) as a dry run; Apply saves: each machine gets its own default
 * configuration with the values changed here. Toasts: 'Component configs for
 * machines have been saved' / 'Error occurred updating component configs for
 * machines' (deployer alike).
 *
 * Known limitation: a machine's own keys beyond its defaults are not kept (the
 * batch call replaces whole configurations and the updater does not read each
 * machine's current one).
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
  /** The machines' shared default, or `differs`. */
  shared: { value: unknown } | 'differs';
}

/** `GET /machines/default-{kind}-configs?ids=…`: each machine's default configuration. */
function useDefaultConfigs(kind: ConfigKind, ids: number[]) {
  return useQuery({
    queryKey: updaterKeys.defaultConfigs(kind, ids),
    queryFn: async ({ signal }) => {
      const answer = await api.get<Record<string, unknown>[]>(`machines/default-${kind}-configs`, { searchParams: { ids: ids.join(',') }, signal });
      return answer.map((item) => ({ machineId: Number(item.machineId), config: (item[CONFIG_FIELD[kind]] ?? {}) as Record<string, unknown> }));
    },
    enabled: ids.length > 0 && ids.length <= MAX_BATCH_CONFIG_MACHINES,
    retry: false,
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function BatchConfigDialog({ kind, machineIds, onClose }: Props) {
  const tooMany = machineIds.length > MAX_BATCH_CONFIG_MACHINES;
  const defaults = useDefaultConfigs(kind, machineIds);
  const definitions = useConfigDefinitions(kind);
  const save = useBatchConfigs(kind);
  const [edits, setEdits] = useState<Record<string, unknown>>({});
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<TBatchResult | undefined>(undefined);

  const rows = useMemo((): Row[] => {
    const defs = byKey(definitions.data ?? []);
    const configs = defaults.data ?? [];
    const keys = [...new Set(configs.flatMap((c) => Object.keys(c.config)))].sort();
    return keys.map((key) => {
      const values = configs.map((c) => c.config[key]);
      const def = defs.get(key);
      const first = values[0];
      return {
        key,
        type: def ? typeName(def.dataType) : typeOfValue(first),
        protected: def?.protected ?? false,
        shared: values.every((v) => same(v, first)) ? { value: first } : 'differs',
      };
    });
  }, [defaults.data, definitions.data]);

  const problemOf = (row: Row) => {
    if (!(row.key in edits)) return undefined;
    const text = texts[row.key];
    if (row.type === 'json' && text !== undefined) return parseJson(text) === undefined ? 'Invalid JSON' : undefined;
    return valueProblem(edits[row.key], row.type);
  };
  const invalid = rows.some((r) => problemOf(r) !== undefined);

  const configs = () =>
    Object.fromEntries((defaults.data ?? []).map((d) => [String(d.machineId), { ...d.config, ...edits }]));
  const send = (dryRun: boolean) =>
    save.mutate({ configs: configs(), dryRun }, { onSuccess: (result) => (dryRun ? setPreview(result) : onClose()) });

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
        if (!edited && r.shared === 'differs') {
          return (
            <Button size="small" onClick={() => setEdits((e) => ({ ...e, [r.key]: null }))} disabled={r.protected} aria-label={`Set ${r.key} on every machine`}>
              Differs per machine: set one value
            </Button>
          );
        }
        const value = edited ? edits[r.key] : r.shared === 'differs' ? undefined : r.shared.value;
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

  const loading = defaults.isLoading || definitions.isLoading;
  return (
    <Modal
      open
      width={1000}
      title={`${BATCH_CONFIG_TITLES[kind]}: ${machineIds.length} machines`}
      okText="Preview"
      onOk={() => send(true)}
      onCancel={onClose}
      okButtonProps={{ disabled: tooMany || !defaults.isSuccess || invalid, loading: save.isPending && !preview }}
      destroyOnHidden
    >
      {tooMany ? (
        <Alert type="warning" showIcon title={`Choose at most ${MAX_BATCH_CONFIG_MACHINES} machines to edit their configs together.`} />
      ) : loading ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : defaults.isError ? (
        <Alert
          type="error"
          showIcon
          title="The default configs could not be loaded"
          action={
            <Button size="small" onClick={() => void defaults.refetch()}>
              Retry
            </Button>
          }
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            Each machine gets its default configuration with the values you change here ({Object.keys(edits).length} changed).
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
