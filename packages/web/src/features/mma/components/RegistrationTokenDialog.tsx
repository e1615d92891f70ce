/**
 * The 'Register an MMA' dialog of the MMA screen (issue 27 point 1): the admin
 * picks a class and creates a registration token; the dialog then shows the
 * token this once (with a copy button), when it expires, and the address the
 * MMA exchanges it at (`POST /mma-agent/register`). Closing it forgets the token.
 */
import { useState } from 'react';
import { Alert, Form, Modal, Select, Typography } from 'antd';
import type { TMmaClass, TMmaRegistrationToken } from '@fleet/contracts';
import { formatDateTime } from '../../../lib/format';
import { useCreateRegistrationToken } from '../api/agents';

export function RegistrationTokenDialog({ classes, initialClassId, onClose }: { classes: TMmaClass[]; initialClassId?: number; onClose(): void }) {
  const [classId, setClassId] = useState<number | undefined>(initialClassId);
  const [made, setMade] = useState<TMmaRegistrationToken | null>(null);
  const create = useCreateRegistrationToken();
  const chosen = classes.find((c) => c.id === (made?.mmaClassId ?? classId));
  const registerUrl = `${window.location.origin}/api/v1/mma-agent/register`;

  return (
    <Modal
      open
      title="Register an MMA"
      width={640}
      okText={made ? 'Done' : 'Create registration token'}
      okButtonProps={{ disabled: !made && classId === undefined }}
      cancelButtonProps={made ? { style: { display: 'none' } } : undefined}
      confirmLoading={create.isPending}
      onOk={() => (made ? onClose() : classId !== undefined && create.mutate(classId, { onSuccess: setMade }))}
      onCancel={onClose}
      destroyOnHidden
    >
      {made ? (
        <>
          <Alert
            type="warning"
            showIcon
            message="Copy the token now: it is not shown again."
            description={`It registers one MMA of class ${chosen?.name ?? made.mmaClassId}, once, until ${formatDateTime(made.expiresAt)}.`}
          />
          <Typography.Paragraph strong style={{ marginTop: 16, marginBottom: 4 }}>
            Registration token
          </Typography.Paragraph>
          <Typography.Paragraph code copyable={{ text: made.token, tooltips: ['Copy token', 'Copied'] }} style={{ wordBreak: 'break-all' }}>
            {made.token}
          </Typography.Paragraph>
          <Typography.Paragraph strong style={{ marginBottom: 4 }}>
            The MMA exchanges it for its own credential at
          </Typography.Paragraph>
          <Typography.Paragraph code copyable={{ text: registerUrl, tooltips: ['Copy address', 'Copied'] }} style={{ wordBreak: 'break-all' }}>
            {registerUrl}
          </Typography.Paragraph>
        </>
      ) : (
        <Form layout="vertical">
          <Typography.Paragraph type="secondary">
            An MMA exchanges the token once for its own credential, within an hour. It then runs the class's operations when the class runs them on remote
            MMAs (Edit MMA Class).
          </Typography.Paragraph>
          <Form.Item label="MMA class" required>
            <Select
              aria-label="MMA class"
              placeholder="Choose a class"
              value={classId}
              onChange={setClassId}
              options={classes.filter((c) => c.mmaInstance).map((c) => ({ value: c.id, label: c.name }))}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
