/**
 * The component config of one planned machine in the create preview (spec 1 §2
 * Create account: "lets component configs be adjusted per machine"; spec 2 §5):
 * a row per `rootKey.subKey` with the catalogue default already substituted,
 * edited by its data type with the machine config editor's `ConfigValueInput`:
 * number (emptied: 0), boolean (true / false / null), JSON (edited as text,
 * stored parsed when it parses, else as the text) or text (a string value).
 * Protected keys are read-only.
 *
 * `value` maps key → typed value; `onChange` receives the whole new map.
 */
import { useState } from 'react';
import { Table, Tag, Typography } from 'antd';
import type { TComponentConfigKey, TConfigDataTypeName } from '@fleet/contracts';
import { ConfigValueInput } from '../../machines/components/ConfigValueInput';
import { parseJson } from '../../machines/components/config-rules';

interface Props {
  machineName: string;
  value: Record<string, unknown>;
  keys: Map<string, TComponentConfigKey>;
  onChange(next: Record<string, unknown>): void;
}

export function ComponentConfigEditor({ machineName, value, keys, onChange }: Props) {
  /** Text of json values as typed; a key is here only once edited. */
  const [texts, setTexts] = useState<Record<string, string>>({});
  const rows = Object.keys(value)
    .sort()
    .map((key) => ({ key, meta: keys.get(key) }));
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });
  /** A JSON (or free text) value: stored parsed when it parses, else as the text. */
  const setText = (key: string, text: string) => {
    setTexts((t) => ({ ...t, [key]: text }));
    const parsed = parseJson(text);
    set(key, parsed === undefined ? text : parsed);
  };
  /** Numbers and booleans by their definition; anything else is a text (a string value) or JSON (edited as text). */
  const typeOf = (key: string, meta: TComponentConfigKey | undefined): TConfigDataTypeName => {
    if (meta?.dataType === 'number' || meta?.dataType === 'boolean') return meta.dataType;
    return key in texts || typeof value[key] !== 'string' ? 'json' : 'string';
  };

  return (
    <Table
      size="small"
      rowKey="key"
      pagination={false}
      dataSource={rows}
      aria-label={`Component config of ${machineName}`}
      columns={[
        {
          title: 'Key',
          width: '40%',
          render: (_, { key, meta }) => (
            <Typography.Text code>
              {key} {meta?.protected && <Tag>protected</Tag>}
            </Typography.Text>
          ),
        },
        {
          title: 'Value',
          render: (_, { key, meta }) => {
            const type = typeOf(key, meta);
            return (
              <ConfigValueInput
                configKey={`${machineName} ${key}`}
                type={type}
                value={value[key]}
                text={texts[key] ?? JSON.stringify(value[key])}
                readOnly={meta?.protected ?? false}
                invalid={false}
                onChange={(v) => set(key, type === 'number' ? (v ?? 0) : v)}
                onJsonText={(text) => setText(key, text)}
              />
            );
          },
        },
      ]}
    />
  );
}
