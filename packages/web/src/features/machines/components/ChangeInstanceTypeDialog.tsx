/**
 * Change Instance Type (spec 2 §2.3, §5, §8): choose one of
 * `GET /cloud/instance-types`; Submit is disabled while the choice equals the
 * machine's current type; a warning says when the chosen type has less storage.
 * Submits `POST /machines/{id}/change-instance-type` ('Instance type changed for
 * machine' / 'Error occurred changing instance type for machine'); the dialog
 * closes on success and stays open on error.
 */
import { useState } from 'react';
import { Alert, Flex, Form, Modal, Select, Typography } from 'antd';
import type { TMachine } from '@fleet/contracts';
import { useChangeInstanceType } from '../api/mutations';
import { useInstanceTypes } from '../api/queries';

export const SMALLER_STORAGE_WARNING = 'The instance type you select has a smaller storage size than the current instance type';

interface Props {
  machine: TMachine;
  onClose(): void;
}

/** Mounted per opening (the parent renders it only while open), so the choice starts at the current type. */
export function ChangeInstanceTypeDialog({ machine, onClose }: Props) {
  const types = useInstanceTypes(true);
  const change = useChangeInstanceType();
  const current = machine.cloudInstanceType;
  const [chosenId, setChosenId] = useState<number | undefined>(current?.id);
  const chosen = types.data?.find((t) => t.id === chosenId);
  const smaller = chosen !== undefined && current !== null && chosen.storageSize < current.storageSize;

  const submit = () => {
    if (chosenId === undefined) return;
    change.mutate({ machine, instanceTypeId: chosenId }, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      title="Change Instance Type"
      okText="Submit"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ disabled: chosenId === undefined || chosenId === current?.id, loading: change.isPending }}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Text>
          Machine <Typography.Text strong>{machine.name}</Typography.Text>, now{' '}
          {current ? `${current.name} (${current.storageSize} GB)` : 'without an instance type'}
        </Typography.Text>
        <Form layout="vertical">
          <Form.Item label="Instance type" htmlFor="change-instance-type" style={{ marginBottom: 0 }}>
            <Select
              id="change-instance-type"
              value={chosenId}
              onChange={setChosenId}
              loading={types.isLoading}
              options={(types.data ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.storageSize} GB)` }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </Form>
        {smaller && <Alert type="warning" showIcon title={SMALLER_STORAGE_WARNING} />}
      </Flex>
    </Modal>
  );
}
