/**
 * The Change windows section of the Edit MMA Class dialog (issue 25 point 5):
 * one box per window with its days (Mon–Sun check boxes) and its hours: start
 * and end (`HH:mm`, end after start, up to 24:00: a window never crosses
 * midnight) in a time zone (a searchable select of the IANA zones; a new window
 * starts in the browser's zone), a Remove button each and Add window below, at most
 * {@link MAX_CHANGE_WINDOWS}. Without windows it says that rollouts may deploy
 * at any time.
 *
 * Rendered inside a `<Form>` whose values have `changeWindows: TChangeWindow[]`.
 */
import { useMemo } from 'react';
import { Button, Checkbox, Flex, Form, Input, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ISO_WEEKDAY_NAMES, MAX_CHANGE_WINDOWS, type TChangeWindow } from '@fleet/contracts';
import { browserTimeZone, changeWindowRules, newChangeWindow, timeZoneChoices } from '../change-windows';
import '../mma.css';

const DAY_OPTIONS = ISO_WEEKDAY_NAMES.map((label, i) => ({ label, value: i + 1 }));

export function ChangeWindowsFields({ initial }: { initial: TChangeWindow[] }) {
  const zones = useMemo(() => timeZoneChoices(initial.map((w) => w.timeZone)).map((z) => ({ value: z, label: z })), [initial]);
  const here = useMemo(() => browserTimeZone(), []);

  return (
    <section aria-labelledby="mma-change-windows-title">
      <Typography.Title level={5} id="mma-change-windows-title" style={{ marginTop: 0 }}>
        Change windows
      </Typography.Title>
      <Form.List name="changeWindows">
        {(fields, { add, remove }) => (
          <Flex vertical gap={8}>
            {fields.length === 0 && <Typography.Text type="secondary">No windows: rollouts may deploy at any time</Typography.Text>}
            {fields.map((field, i) => (
              <div key={field.key} className="mma-change-window" role="group" aria-label={`Change window ${i + 1}`}>
                <Flex justify="space-between" align="start" gap={8}>
                  <Form.Item label="Days" name={[field.name, 'days']} rules={changeWindowRules.days} className="mma-change-window-item">
                    <Checkbox.Group options={DAY_OPTIONS} />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={`Remove change window ${i + 1}`}
                    onClick={() => remove(field.name)}
                  />
                </Flex>
                {/* One row, so that an error of start, end or zone shows under the whole row, not in a narrow column. */}
                <Form.Item label="Hours" htmlFor={`changeWindows_${field.name}_start`} className="mma-change-window-item">
                  <Flex gap={8} align="center">
                    <Form.Item noStyle name={[field.name, 'start']} rules={changeWindowRules.start}>
                      <Input aria-label="Start" placeholder="HH:mm" maxLength={5} style={{ width: 80 }} />
                    </Form.Item>
                    <span aria-hidden>to</span>
                    <Form.Item noStyle name={[field.name, 'end']} rules={changeWindowRules.end(field.name)} dependencies={[['changeWindows', field.name, 'start']]}>
                      <Input aria-label="End" placeholder="HH:mm" maxLength={5} style={{ width: 80 }} />
                    </Form.Item>
                    <span aria-hidden>in</span>
                    <Form.Item noStyle name={[field.name, 'timeZone']} rules={changeWindowRules.timeZone}>
                      <Select aria-label="Time zone" showSearch options={zones} style={{ flex: 1, minWidth: 0 }} />
                    </Form.Item>
                  </Flex>
                </Form.Item>
              </div>
            ))}
            <div>
              <Button icon={<PlusOutlined aria-hidden />} disabled={fields.length >= MAX_CHANGE_WINDOWS} onClick={() => add(newChangeWindow(here))}>
                Add window
              </Button>
            </div>
          </Flex>
        )}
      </Form.List>
    </section>
  );
}
