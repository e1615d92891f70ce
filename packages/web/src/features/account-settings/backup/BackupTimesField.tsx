/**
 * The daily schedule of the Backup Settings card (spec 1 §2, §5): a table of
 * backup times of day (UTC, `HH:mm`) with a Remove button each, and a time
 * picker in 30-minute steps (00:00 to 23:30) with Add Time. A duplicate or
 * invalid time is ignored: the list stays as it was (spec 1 §5). The list is
 * kept sorted, as the server stores it.
 *
 * A form control: `value` and `onChange` come from its `Form.Item` (the form's
 * `times`). Read-only (`disabled`, e.g. without write permission): the table
 * only, no picker and no buttons.
 */
import { useState } from 'react';
import { Button, Flex, Table, TimePicker, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { BACKUP_TIME_STEP_MINUTES } from '@fleet/contracts';
import { addBackupTime } from './backup-config';

interface Props {
  value?: string[];
  onChange?(times: string[]): void;
  /** Read-only: no picker, no Add Time, no Remove. */
  disabled?: boolean;
  /** Id of the picker's input, so that a label can point at it. */
  id?: string;
}

export function BackupTimesField({ value = [], onChange, disabled, id }: Props) {
  const [picked, setPicked] = useState<Dayjs | null>(null);

  const add = () => {
    if (!picked) return;
    onChange?.(addBackupTime(value, picked.format('HH:mm')));
    setPicked(null);
  };

  const columns = [
    { key: 'time', title: 'Time (UTC)', render: (_: unknown, time: string) => time },
    ...(disabled
      ? []
      : [
          {
            key: 'actions',
            title: 'Actions',
            width: 100,
            render: (_: unknown, time: string) => (
              <Button
                type="text"
                danger
                size="small"
                icon={<DeleteOutlined aria-hidden />}
                aria-label={`Remove ${time}`}
                onClick={() => onChange?.(value.filter((t) => t !== time))}
              />
            ),
          },
        ]),
  ];

  return (
    <Flex vertical gap={8}>
      <Table<string>
        rowKey={(time) => time}
        size="small"
        aria-label="Daily schedule"
        columns={columns}
        dataSource={value}
        pagination={false}
        locale={{ emptyText: <Typography.Text type="secondary">No daily backups</Typography.Text> }}
      />
      {!disabled && (
        <Flex gap={8} align="center" wrap>
          <TimePicker
            id={id}
            aria-label="Backup time (UTC)"
            format="HH:mm"
            minuteStep={BACKUP_TIME_STEP_MINUTES}
            showNow={false}
            needConfirm={false}
            value={picked}
            onChange={setPicked}
            placeholder="HH:mm UTC"
            style={{ width: 140 }}
          />
          <Button icon={<PlusOutlined aria-hidden />} disabled={!picked} onClick={add}>
            Add Time
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
