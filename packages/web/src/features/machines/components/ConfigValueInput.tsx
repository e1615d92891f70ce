/**
 * The value input of one config key, by its dataType (spec 2 §5, spec 3 §2.5):
 * string a text area, number a number input, boolean a true / false / null
 * radio, json a JSON text area (checked as typed). Protected keys are read-only.
 * The accessible name is the key (`launcher.port`).
 *
 * A json value is edited as text: `onJsonText` receives every edit, and
 * `onChange` the parsed value only while the text is valid JSON.
 */
import { Input, InputNumber, Radio } from 'antd';
import type { TConfigDataTypeName } from '@fleet/contracts';

const BOOLEAN_OPTIONS = [
  { value: 'true', label: 'true' },
  { value: 'false', label: 'false' },
  { value: 'null', label: 'null' },
];

interface Props {
  configKey: string;
  type: TConfigDataTypeName;
  value: unknown;
  /** The text of a json value being edited. */
  text: string;
  readOnly: boolean;
  /** Shown as the input's error state. */
  invalid: boolean;
  onChange(value: unknown): void;
  onJsonText(text: string): void;
}

export function ConfigValueInput({ configKey, type, value, text, readOnly, invalid, onChange, onJsonText }: Props) {
  const status = invalid ? 'error' : undefined;
  switch (type) {
    case 'number':
      return (
        <InputNumber
          aria-label={configKey}
          value={typeof value === 'number' ? value : null}
          disabled={readOnly}
          status={status}
          style={{ width: '100%' }}
          onChange={(v) => onChange(v)}
        />
      );
    case 'boolean':
      return (
        <Radio.Group
          aria-label={configKey}
          size="small"
          optionType="button"
          options={BOOLEAN_OPTIONS}
          value={String(value)}
          disabled={readOnly}
          onChange={(e) => onChange(e.target.value === 'null' ? null : e.target.value === 'true')}
        />
      );
    case 'json':
      return (
        <Input.TextArea
          aria-label={configKey}
          value={text}
          disabled={readOnly}
          status={status}
          autoSize={{ minRows: 1, maxRows: 8 }}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
          onChange={(e) => onJsonText(e.target.value)}
        />
      );
    default:
      return (
        <Input.TextArea
          aria-label={configKey}
          value={typeof value === 'string' ? value : ''}
          disabled={readOnly}
          status={status}
          autoSize={{ minRows: 1, maxRows: 4 }}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}
