/**
 * The fields of Idle Schedule (spec 1 §2 Idle Schedule card, §3 Idle schedule
 * entry, §5), shared by Edit account and Create account: a table with Stop at
 * (date and time in UTC, as the scheduler runs it: DESIGN §13), Resume after
 * (hours, minimum 0), Resume at (Stop at plus Resume after, computed, UTC) and
 * Actions (Delete), and a
 * New Idle Time button below it ({@link nextIdleEntry}).
 *
 * The form's values are `{ idleSchedules: TIdleScheduleEntry[] }` with `stopAt`
 * kept as the contract's ISO string (the picker converts inside its
 * `Form.Item`). `mode` 'create' starts from {@link defaultIdleSchedules}
 * (spec 1 §4 Start from scratch) unless `initialValues` is given; 'edit' starts
 * from `initialValues` (the account's). `disabled` makes the table read-only,
 * without the Actions column and New Idle Time.
 */
import { Button, Form, InputNumber, Table, Typography, type FormInstance } from 'antd';
import { DatePicker } from '../../../components/LazyDatePicker';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import type { FormListFieldData } from 'antd/es/form/FormList';
import type { TIdleScheduleEntry } from '@fleet/contracts';
import { DATE_TIME_FORMAT, formatUtcDateTime, fromUtcPickerValue, utcPickerValue } from '../../../lib/format';
import {
  MAX_RESUME_AFTER_HOURS,
  MIN_RESUME_AFTER_HOURS,
  defaultIdleSchedules,
  nextIdleEntry,
  resumeAt,
  type IdleFormValues,
} from './idle-schedule';

export interface IdleFieldsProps {
  form: FormInstance;
  mode: 'create' | 'edit';
  initialValues?: IdleFormValues;
  disabled?: boolean;
}

const cell = { style: { marginBottom: 0 } };
/** The picker shows the UTC wall clock as a Dayjs; the form keeps the ISO string. */
const stopAtProps = {
  getValueProps: (value: string | null | undefined) => ({ value: utcPickerValue(value) }),
  normalize: (value: Dayjs | null) => fromUtcPickerValue(value?.second(0).millisecond(0)),
};

export function IdleFields({ form, mode, initialValues, disabled }: IdleFieldsProps) {
  const entries = (Form.useWatch('idleSchedules', form) as (Partial<TIdleScheduleEntry> | undefined)[] | undefined) ?? [];

  return (
    <Form
      form={form}
      name={`idle-${mode}`}
      validateTrigger="onBlur"
      disabled={disabled}
      initialValues={initialValues ?? (mode === 'create' ? { idleSchedules: defaultIdleSchedules() } : undefined)}
    >
      <Form.List name="idleSchedules">
        {(fields, { add, remove }) => {
          const columns = [
            {
              key: 'stopAt',
              title: 'Stop at (UTC)',
              render: (_: unknown, field: FormListFieldData) => (
                <Form.Item name={[field.name, 'stopAt']} {...cell} {...stopAtProps} rules={[{ required: true, message: 'Stop at is required' }]}>
                  <DatePicker aria-label="Stop at" showTime={{ format: 'HH:mm' }} format={DATE_TIME_FORMAT} allowClear={false} />
                </Form.Item>
              ),
            },
            {
              key: 'resumeAfter',
              title: 'Resume after',
              render: (_: unknown, field: FormListFieldData) => (
                <Form.Item
                  name={[field.name, 'resumeAfter']}
                  {...cell}
                  rules={[
                    { required: true, message: 'Resume after is required' },
                    { type: 'number', min: MIN_RESUME_AFTER_HOURS, message: 'Resume after must be at least 0 hours' },
                  ]}
                >
                  <InputNumber aria-label="Resume after (hours)" min={MIN_RESUME_AFTER_HOURS} max={MAX_RESUME_AFTER_HOURS} suffix="hours" style={{ width: 140 }} />
                </Form.Item>
              ),
            },
            {
              key: 'resumeAt',
              title: 'Resume at (UTC)',
              render: (_: unknown, field: FormListFieldData) => {
                const at = resumeAt(entries[field.name]);
                return at ? formatUtcDateTime(at) : <Typography.Text type="secondary">—</Typography.Text>;
              },
            },
            ...(disabled
              ? []
              : [
                  {
                    key: 'actions',
                    title: 'Actions',
                    width: 100,
                    render: (_: unknown, field: FormListFieldData) => (
                      <Button
                        type="text"
                        danger
                        size="small"
                        icon={<DeleteOutlined aria-hidden />}
                        aria-label={`Delete idle time ${formatUtcDateTime(entries[field.name]?.stopAt)}`.trim()}
                        onClick={() => remove(field.name)}
                      />
                    ),
                  },
                ]),
          ];
          return (
            <>
              <Table<FormListFieldData>
                rowKey="key"
                size="small"
                aria-label="Idle schedule"
                columns={columns}
                dataSource={fields}
                pagination={false}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: <Typography.Text type="secondary">No idle times</Typography.Text> }}
              />
              {!disabled && (
                <Button icon={<PlusOutlined aria-hidden />} style={{ marginTop: 8 }} onClick={() => add(nextIdleEntry(entries))}>
                  New Idle Time
                </Button>
              )}
            </>
          );
        }}
      </Form.List>
    </Form>
  );
}
