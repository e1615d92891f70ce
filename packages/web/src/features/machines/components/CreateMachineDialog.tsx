/**
 * Create Machine (spec 2 §2.3, §7, §8): choose one of the account's creatable
 * machines (`GET /accounts/{id}/creatable-machines`, the machines its instance
 * policy still lacks) and create it with `POST /accounts/{id}/machines`
 * (isLauncher, siteId, accountId), which also queues its CreateMachine task.
 * Error toast 'Error occurred creating machine'; the new row appears in the table.
 */
import { useState } from 'react';
import { Empty, Modal, Radio, Spin, Typography } from 'antd';
import type { TCreatableMachine } from '@fleet/contracts';
import { useCreateMachine } from '../api/mutations';
import { useCreatableMachines } from '../api/queries';

interface Props {
  accountId: number;
  onClose(): void;
}

const keyOf = (m: TCreatableMachine) => `${m.isLauncher ? 'launcher' : 'site'}-${m.siteId ?? 0}`;

function describe(m: TCreatableMachine): string {
  const roles = [m.isLauncher && 'launcher', m.isSiteMaster && 'site master'].filter(Boolean).join(' and ');
  return m.siteName ? `${roles}, site ${m.siteName}` : roles;
}

/** Mounted per opening (the parent renders it only while open). */
export function CreateMachineDialog({ accountId, onClose }: Props) {
  const creatable = useCreatableMachines(accountId, true);
  const create = useCreateMachine();
  const [chosenKey, setChosenKey] = useState<string | undefined>(undefined);
  const chosen = creatable.data?.find((m) => keyOf(m) === chosenKey);

  const submit = () => {
    if (!chosen) return;
    create.mutate({ isLauncher: chosen.isLauncher, siteId: chosen.siteId, accountId }, { onSuccess: onClose });
  };

  let body;
  if (creatable.isLoading) body = <Spin aria-label="Loading creatable machines" />;
  else if (!creatable.data || creatable.data.length === 0)
    body = <Empty description="This account already has every machine its instance policy needs" />;
  else
    body = (
      <Radio.Group
        aria-label="Machine to create"
        value={chosenKey}
        onChange={(e) => setChosenKey(e.target.value as string)}
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
        options={creatable.data.map((m) => ({
          value: keyOf(m),
          label: (
            <span>
              {m.name} <Typography.Text type="secondary">({describe(m)})</Typography.Text>
            </span>
          ),
        }))}
      />
    );

  return (
    <Modal
      open
      title="Create Machine"
      okText="Create"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ disabled: !chosen, loading: create.isPending }}
      destroyOnHidden
    >
      {body}
    </Modal>
  );
}
