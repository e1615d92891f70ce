/**
 * The software update of the selected targets (spec 3 §2.8, §5 Confirmations,
 * §8; DESIGN §15; issue 13 point 3). Opened with a dry run's answer:
 *
 * 1. the diff per target (`ChangesTable`; refused targets highlighted with the
 *    rule; the update is refused as a whole while one is);
 * 2. 'Roll out in waves' with its plan (`RolloutPlanEditor`);
 * 3. Update asks for confirmation naming the number of targets; in machine mode
 *    with the title 'Are you sure you want to do this?' and the text of spec 3
 *    §5; Yes / Cancel;
 * 4. the real call: 'Software update submitted' / 'Error occurred submitting
 *    software update'; with a rollout, the page goes to `/rollouts/{id}`.
 */
import { useState } from 'react';
import { Checkbox, Divider, Modal } from 'antd';
import { useNavigate } from 'react-router';
import type { TBatchResult, TSoftwareUpdateConfigInput } from '@fleet/contracts';
import { useSoftwareUpdate } from '../api/mutations';
import { defaultRolloutPlan } from '../updater-payload';
import type { UpdaterMode } from '../use-updater-params';
import { ChangesTable } from './ChangesTable';
import { RolloutPlanEditor, type RolloutPlanValue } from './RolloutPlanEditor';

/** Confirmation of a software update in machine mode (spec 3 §5). */
export const MACHINE_MODE_CONFIRM = {
  title: 'Are you sure you want to do this?',
  text: 'Updating software version(s) in machine mode might result into inconsistent versions between account and machines',
};

interface Props {
  mode: UpdaterMode;
  ids: number[];
  config: TSoftwareUpdateConfigInput;
  /** The dry run's answer; the dialog is open while it is set. */
  preview: TBatchResult | undefined;
  onClose(): void;
}

export function UpdateDialog({ mode, ids, config, preview, onClose }: Props) {
  const [modal, holder] = Modal.useModal();
  const navigate = useNavigate();
  const update = useSoftwareUpdate();
  const [inWaves, setInWaves] = useState(false);
  const [plan, setPlan] = useState<RolloutPlanValue>(defaultRolloutPlan);
  const label = mode === 'machine' ? 'machines' : 'accounts';

  const submit = () => {
    const rollout = inWaves ? plan : null;
    const body = mode === 'machine' ? { kind: 'machine' as const, ...config, machines: ids, rollout } : { kind: 'account' as const, ...config, accounts: ids, rollout };
    update.mutate(body, {
      onSuccess: (result) => {
        onClose();
        if (result.rolloutId !== null) void navigate(`/rollouts/${result.rolloutId}`);
      },
    });
  };

  const confirm = () => {
    const count = `${ids.length.toLocaleString('en-US')} ${label}`;
    void modal.confirm({
      title: mode === 'machine' ? MACHINE_MODE_CONFIRM.title : `Update ${count}?`,
      content:
        mode === 'machine'
          ? `${MACHINE_MODE_CONFIRM.text}. This updates ${count}${inWaves ? ' in waves' : ''}.`
          : `The software versions of ${count} will be updated${inWaves ? ' in waves' : ''}.`,
      okText: 'Yes',
      cancelText: 'Cancel',
      onOk: submit,
    });
  };

  return (
    <Modal
      open={preview !== undefined}
      title={`Update ${ids.length.toLocaleString('en-US')} ${label}: dry run`}
      width={1000}
      okText="Update"
      onOk={confirm}
      onCancel={onClose}
      okButtonProps={{ disabled: !preview || preview.refused > 0 || preview.changed === 0, loading: update.isPending }}
      destroyOnHidden
    >
      {preview && <ChangesTable result={preview} />}
      <Divider style={{ margin: '12px 0' }} />
      <Checkbox checked={inWaves} onChange={(e) => setInWaves(e.target.checked)}>
        Roll out in waves
      </Checkbox>
      {inWaves && (
        <div style={{ marginTop: 8 }}>
          <RolloutPlanEditor value={plan} total={ids.length} onChange={setPlan} />
        </div>
      )}
      {holder}
    </Modal>
  );
}
