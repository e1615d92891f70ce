/**
 * The input of one default value, by the definition's data type (spec 3 §2.5):
 * string, a textarea with a Variables menu that inserts `{variable}` at the
 * cursor; number, a number input (a value written as a variable, such as
 * `{site_port}`, is shown as text, to be cleared or kept); boolean, a
 * true/false/null radio; json, the JSON code editor (loaded lazily).
 *
 * Values are catalogue text (`'42'`, `'true'`, `'{"a":1}'`), as the API holds them.
 */
import { lazy, Suspense, useRef } from 'react';
import { Button, Dropdown, Input, InputNumber, Radio, Space, Spin } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { CONFIG_VARIABLES, type TConfigDataTypeName } from '@fleet/contracts';
import { insertAt } from './config-values';

const JsonEditor = lazy(() => import('./JsonEditor'));

export interface ConfigValueInputProps {
  dataType: TConfigDataTypeName;
  value: string;
  onChange(next: string): void;
  /** Accessible name, e.g. 'SAAS default value'. */
  label: string;
  disabled?: boolean;
}

function StringValueInput({ value, onChange, label, disabled }: Omit<ConfigValueInputProps, 'dataType'>) {
  const ref = useRef<TextAreaRef>(null);
  const insertVariable = (name: string) => {
    const area = ref.current?.resizableTextArea?.textArea;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    const token = `{${name}}`;
    onChange(insertAt(value, token, start, end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <Space.Compact direction="vertical" style={{ width: '100%' }}>
      <Input.TextArea ref={ref} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} autoSize={{ minRows: 1, maxRows: 6 }} disabled={disabled} />
      <Dropdown
        disabled={disabled}
        trigger={['click']}
        menu={{ items: CONFIG_VARIABLES.map((v) => ({ key: v, label: v })), onClick: ({ key }) => insertVariable(key) }}
      >
        <Button size="small" aria-label={`Variables for ${label}`} style={{ alignSelf: 'flex-start', marginTop: 4 }}>
          Variables <DownOutlined />
        </Button>
      </Dropdown>
    </Space.Compact>
  );
}

function NumberValueInput({ value, onChange, label, disabled }: Omit<ConfigValueInputProps, 'dataType'>) {
  const numeric = value.trim() === '' || Number.isFinite(Number(value));
  if (!numeric) {
    return <Input aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} allowClear />;
  }
  return (
    <InputNumber
      aria-label={label}
      style={{ width: '100%' }}
      value={value === '' ? null : Number(value)}
      onChange={(n) => onChange(n === null ? '0' : String(n))}
      disabled={disabled}
    />
  );
}

export function ConfigValueInput({ dataType, ...props }: ConfigValueInputProps) {
  switch (dataType) {
    case 'number':
      return <NumberValueInput {...props} />;
    case 'boolean':
      return (
        <Radio.Group
          aria-label={props.label}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value as string)}
          disabled={props.disabled}
          options={['true', 'false', 'null'].map((v) => ({ value: v, label: v }))}
        />
      );
    case 'json':
      return (
        <Suspense fallback={<Spin size="small" />}>
          <JsonEditor {...props} />
        </Suspense>
      );
    default:
      return <StringValueInput {...props} />;
  }
}
