/**
 * The component config of one planned machine in the create preview (spec 1 §2
 * Create account: "lets component configs be adjusted per machine"; spec 2 §5):
 * a row per `rootKey.subKey` with the catalogue default already substituted,
 * edited by its data type: number, boolean (true / false / null) or JSON
 * (anything else is text). Protected keys are read-only.
 *
 * `value` maps key → typed value; `onChange` receives the whole new map.
 */
import { useState } from 'react';
import { Input, InputNumber, Select, Table, Tag, Typography } from 'antd';
import type { TComponentConfigKey } from '@fleet/contracts';

interface Props {
  machineName: string;
  value: Record<string, unknown>;
  keys: Map<string, TComponentConfigKey>;
  onChange(next: Record<string, unknown>): void;
}

const BOOLEAN_OPTIONS = [
  { value: 'true', label: 'true' },
  { value: 'false', label: 'false' },
  { value: 'null', label: 'null' },
];

/** A JSON (or free text) value: edited as text, stored parsed when it parses, else as the text. */
function JsonInput({ label, value, disabled, onChange }: { label: string; value: unknown; disabled: boolean; onChange(v: unknown): void }) {
  const [text, setText] = useState(() => (typeof value === 'string' ? value : JSON.stringify(value)));
  return (
    <Input
      aria-label={label}
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => {
        if (typeof value === 'string') return onChange(text);
        try {
          onChange(JSON.parse(text));
        } catch {
          onChange(text);
        }
      }}
    />
  );
}

export function ComponentConfigEditor({ machineName, value, keys, onChange }: Props) {
  const rows = Object.keys(value)
    .sort()
    .map((key) => ({ key, meta: keys.get(key) }));
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });

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
            const label = `${machineName} ${key}`;
            const disabled = meta?.protected ?? false;
            const current = value[key];
            if (meta?.dataType === 'number') {
              return (
                <InputNumber aria-label={label} value={typeof current === 'number' ? current : null} disabled={disabled} onChange={(v) => set(key, v ?? 0)} />
              );
            }
            if (meta?.dataType === 'boolean') {
              return (
                <Select
                  aria-label={label}
                  style={{ width: 120 }}
                  value={String(current)}
                  disabled={disabled}
                  options={BOOLEAN_OPTIONS}
                  onChange={(v) => set(key, v === 'null' ? null : v === 'true')}
                />
              );
            }
            return <JsonInput label={label} value={current} disabled={disabled} onChange={(v) => set(key, v)} />;
          },
        },
      ]}
    />
  );
}
