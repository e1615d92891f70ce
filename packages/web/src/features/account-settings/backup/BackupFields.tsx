/**
 * The fields of Backup Settings (spec 1 §2 Backup Settings card, §3
 * backupConfig, §5 Backup rules, §9 defaults), shared by Edit account and
 * Create account:
 *
 * - Daily schedule: backup times of day (UTC) in 30-minute steps, duplicates and
 *   invalid times ignored ({@link BackupTimesField});
 * - Retention policy: for manual, daily, weekly and monthly backups the days to
 *   retain (minimum 1) and the end-of-life action (Delete, Move to Glacier), the
 *   weekly backup day (Monday to Sunday, stored 1 to 7) and the monthly backup
 *   day (1 to 28).
 *
 * The form's values are a `TBackupConfig` (see `section-forms.ts`). `mode`
 * 'create' starts from {@link defaultBackupConfig} (spec 1 §4 Start from
 * scratch) unless `initialValues` is given; 'edit' starts from `initialValues`
 * (the account's). `disabled` makes every field read-only and hides the
 * schedule's buttons (no write permission, or no template chosen yet).
 */
import { Col, Form, InputNumber, Row, Select, Table, Typography, type FormInstance } from 'antd';
import type { TBackupConfig } from '@fleet/contracts';
import {
  EOL_ACTION_OPTIONS,
  MIN_DAYS_TO_RETAIN,
  MONTHLY_DAY_MAX,
  MONTHLY_DAY_MIN,
  RETENTION_KINDS,
  WEEKDAY_OPTIONS,
  defaultBackupConfig,
} from './backup-config';
import { BackupTimesField } from './BackupTimesField';

export interface BackupFieldsProps {
  form: FormInstance;
  mode: 'create' | 'edit';
  initialValues?: TBackupConfig;
  disabled?: boolean;
}

type RetentionRow = (typeof RETENTION_KINDS)[number];

const cell = { style: { marginBottom: 0 } };
const daysRule = { type: 'number' as const, min: MIN_DAYS_TO_RETAIN, message: `Days to retain must be at least ${MIN_DAYS_TO_RETAIN}` };

function backupDayCell(row: RetentionRow) {
  if (row.kind === 'weekly') {
    return (
      <Form.Item name="weeklyBackupDay" {...cell} rules={[{ required: true, message: 'Weekly backup day is required' }]}>
        <Select aria-label="Weekly backup day" options={WEEKDAY_OPTIONS} style={{ width: 140 }} />
      </Form.Item>
    );
  }
  if (row.kind === 'monthly') {
    return (
      <Form.Item
        name="monthlyBackupDay"
        {...cell}
        rules={[
          { required: true, message: 'Monthly backup day is required' },
          { type: 'number', min: MONTHLY_DAY_MIN, max: MONTHLY_DAY_MAX, message: 'Monthly backup day must be between 1 and 28' },
        ]}
      >
        <InputNumber aria-label="Monthly backup day" min={MONTHLY_DAY_MIN} max={MONTHLY_DAY_MAX} precision={0} style={{ width: 140 }} />
      </Form.Item>
    );
  }
  return <Typography.Text type="secondary">{row.kind === 'daily' ? 'Every day' : 'On demand'}</Typography.Text>;
}

const retentionColumns = [
  { key: 'kind', title: 'Backup', dataIndex: 'label' },
  {
    key: 'days',
    title: 'Days to retain',
    render: (_: unknown, row: RetentionRow) => (
      <Form.Item name={row.days} {...cell} rules={[{ required: true, message: 'Days to retain is required' }, daysRule]}>
        <InputNumber aria-label={`${row.label} days to retain`} min={MIN_DAYS_TO_RETAIN} max={36_500} precision={0} style={{ width: 120 }} />
      </Form.Item>
    ),
  },
  {
    key: 'eol',
    title: 'End-of-life action',
    render: (_: unknown, row: RetentionRow) => (
      <Form.Item name={row.eol} {...cell} rules={[{ required: true, message: 'End-of-life action is required' }]}>
        <Select aria-label={`${row.label} end-of-life action`} options={EOL_ACTION_OPTIONS} style={{ width: 160 }} />
      </Form.Item>
    ),
  },
  { key: 'day', title: 'Backup day', render: (_: unknown, row: RetentionRow) => backupDayCell(row) },
];

export function BackupFields({ form, mode, initialValues, disabled }: BackupFieldsProps) {
  return (
    <Form
      form={form}
      name={`backup-${mode}`}
      layout="vertical"
      validateTrigger="onBlur"
      disabled={disabled}
      initialValues={initialValues ?? (mode === 'create' ? defaultBackupConfig() : undefined)}
    >
      <Row gutter={[24, 16]}>
        <Col xs={24} lg={8}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            Daily schedule (UTC)
          </Typography.Title>
          <Form.Item name="times" {...cell}>
            <BackupTimesField disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={16}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            Retention policy
          </Typography.Title>
          <Table<RetentionRow>
            rowKey="kind"
            size="small"
            aria-label="Retention policy"
            columns={retentionColumns}
            dataSource={RETENTION_KINDS}
            pagination={false}
            scroll={{ x: 'max-content' }}
          />
        </Col>
      </Row>
    </Form>
  );
}
