/**
 * The JSON code editor of a json default value (spec 3 §2.5): CodeMirror with
 * JSON highlighting, and the parse error of the text below it (checked as the
 * server checks it: `configDefaultTextError`, variables standing for values).
 *
 * Loaded lazily (`ConfigValueInput`): CodeMirror is fetched only when a json
 * value is edited, never with the catalogue pages themselves.
 */
import { useMemo } from 'react';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { Typography } from 'antd';
import { configDefaultTextError } from '@fleet/contracts';


export interface JsonEditorProps {
  value: string;
  onChange(next: string): void;
  /** Accessible name of the editor. */
  label: string;
  disabled?: boolean;
}

export default function JsonEditor({ value, onChange, label, disabled }: JsonEditorProps) {
  // The editable area is the textbox assistive technology sees: it carries the name.
  const extensions = useMemo(() => [json(), EditorView.contentAttributes.of({ 'aria-label': label })], [label]);
  // Empty text is no default (saved as null), not a parse error.
  const error = value.trim() === '' ? null : configDefaultTextError(value, 'json');
  return (
    <div>
      <div
        style={{ border: `1px solid ${error ? '#ff4d4f' : '#d9d9d9'}`, borderRadius: 6, overflow: 'hidden' }}
        data-testid={`json-editor-${label}`}
      >
        <CodeMirror
          value={value}
          onChange={onChange}
          extensions={extensions}
          editable={!disabled}
          minHeight="80px"
          maxHeight="240px"
          basicSetup={{ foldGutter: false, highlightActiveLine: false }}
        />
      </div>
      {error && (
        <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
          {error}
        </Typography.Text>
      )}
    </div>
  );
}
