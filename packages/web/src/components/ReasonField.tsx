/**
 * The Reason field of a dialog that records why (a wave's approval, a fleet
 * freeze; issue 25): a labelled text area of at most 500 characters, focused
 * when the dialog opens, with 'Say why' once it was left or submitted empty.
 * The caller keeps the value and whether it was touched.
 */
import { Input, Typography } from 'antd';

export function ReasonField({ id, value, touched, onChange, onTouch }: { id: string; value: string; touched: boolean; onChange(value: string): void; onTouch(): void }) {
  const invalid = touched && value.trim() === '';
  return (
    <>
      <label htmlFor={id}>Reason</label>
      <Input.TextArea
        id={id}
        autoFocus
        rows={3}
        maxLength={500}
        showCount
        value={value}
        status={invalid ? 'error' : undefined}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onTouch}
      />
      {invalid && (
        <Typography.Text type="danger" id={`${id}-error`}>
          Say why
        </Typography.Text>
      )}
    </>
  );
}
