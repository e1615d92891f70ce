/**
 * The approval of a rollout's current wave on the rollout page (issue 25 point
 * 1): while its deploys wait for approval, a banner says how many targets wait
 * and who may release them, with Approve wave and Reject. Each asks for a reason
 * (kept in the audit trail) in a dialog; Reject says that it cancels what has
 * not started and halts the rollout. The user who started the rollout sees why
 * they may not decide when a second approver is required (the server answers
 * 403 all the same).
 */
import { useState } from 'react';
import { Alert, Button, Flex, Modal, Typography } from 'antd';
import { ReasonField } from '../../../components/ReasonField';
import type { TRollout, TRolloutWave } from '@fleet/contracts';
import { useWaveDecision, type WaveDecision } from '../api/mutations';

/** The wave whose approval the page asks for: the current one of a Running or Paused rollout, while targets of it wait. */
export function waveAwaitingApproval(r: TRollout): TRolloutWave | undefined {
  if (r.status !== 'Running' && r.status !== 'Paused') return undefined;
  const wave = r.waves[r.currentWave];
  return wave && wave.counts.AwaitingApproval > 0 ? wave : undefined;
}

const DIALOG: Record<WaveDecision, { title: (n: number) => string; ok: string; text: string }> = {
  approve: {
    title: (n) => `Approve wave ${n}`,
    ok: 'Approve wave',
    text: 'Every deploy of this wave that waits for approval starts now, and the wave timeout runs from now.',
  },
  reject: {
    title: (n) => `Reject wave ${n}`,
    ok: 'Reject wave',
    text: 'Every deploy of this rollout that has not started is cancelled, the waiting targets fail, and the rollout halts.',
  },
};

function DecisionDialog({ rollout, wave, decision, onClose }: { rollout: TRollout; wave: TRolloutWave; decision: WaveDecision; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const mutation = useWaveDecision(decision);
  const { title, ok, text } = DIALOG[decision];
  const missing = reason.trim() === '';
  const submit = () => {
    setTouched(true);
    if (missing) return;
    mutation.mutate({ id: rollout.id, wave: wave.index + 1, reason: reason.trim() }, { onSuccess: onClose });
  };
  return (
    <Modal
      open
      title={title(wave.index + 1)}
      okText={ok}
      okButtonProps={{ danger: decision === 'reject', loading: mutation.isPending }}
      cancelText="Cancel"
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{text}</Typography.Paragraph>
      <ReasonField id="wave-decision-reason" value={reason} touched={touched} onChange={setReason} onTouch={() => setTouched(true)} />
    </Modal>
  );
}

/** The banner and its dialogs; nothing when no wave of `rollout` waits for approval. */
export function WaveApproval({ rollout }: { rollout: TRollout }) {
  const [open, setOpen] = useState<WaveDecision | null>(null);
  const wave = waveAwaitingApproval(rollout);
  if (!wave) return null;
  const starter = rollout.secondApproverRequired && rollout.startedByYou;
  const n = wave.counts.AwaitingApproval;
  return (
    <Alert
      type="warning"
      showIcon
      role="region"
      aria-label="Wave approval"
      title={`Wave ${wave.index + 1} waits for approval: ${n} target${n === 1 ? '' : 's'}`}
      description={
        starter
          ? `You started this rollout: another user with write permission approves or rejects its waves.`
          : `Its deploys start only once a user with write permission${rollout.secondApproverRequired ? ` other than ${rollout.createdBy}` : ''} approves the wave.`
      }
      action={
        <Flex gap={8}>
          <Button type="primary" disabled={starter} onClick={() => setOpen('approve')}>
            Approve wave
          </Button>
          <Button danger disabled={starter} onClick={() => setOpen('reject')}>
            Reject
          </Button>
          {open && <DecisionDialog rollout={rollout} wave={wave} decision={open} onClose={() => setOpen(null)} />}
        </Flex>
      }
    />
  );
}
