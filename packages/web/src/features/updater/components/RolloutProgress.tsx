/**
 * A rollout's progress (DESIGN §15): per wave a progress bar (succeeded and
 * skipped count as done, failed in red) with its counts, status, approval and
 * bake (issue 25); and the counts of every target state.
 */
import { Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import { ROLLOUT_TARGET_STATES, type TRolloutTargetCounts, type TRolloutWave, type TWaveApproval, type TWaveBake } from '@fleet/contracts';
import { formatDateTime } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';

export const STATE_COLORS: Record<string, string> = {
  Pending: 'default',
  Deploying: 'processing',
  AwaitingApproval: 'gold',
  Baking: 'processing',
  Succeeded: 'success',
  Failed: 'error',
  Skipped: 'default',
  NotApplied: 'warning',
  Running: 'processing',
  Paused: 'warning',
  Halted: 'error',
  Aborted: 'default',
  Completed: 'success',
};

/** Targets of `counts` whose wave work is over (succeeded, skipped, failed), and all. */
export function waveDone(counts: TRolloutTargetCounts): { done: number; failed: number; total: number } {
  const total = ROLLOUT_TARGET_STATES.reduce((sum, s) => sum + counts[s], 0);
  return { done: counts.Succeeded + counts.Skipped, failed: counts.Failed, total };
}

export function CountTags({ counts }: { counts: TRolloutTargetCounts }) {
  return (
    <Flex gap={4} wrap>
      {ROLLOUT_TARGET_STATES.filter((s) => counts[s] > 0).map((s) => (
        <Tag key={s} color={STATE_COLORS[s]}>
          {s} {counts[s]}
        </Tag>
      ))}
    </Flex>
  );
}

/** A wave's approval: needed and not given yet, approved or rejected by whom (the reason on hover); nothing when none is needed. */
function ApprovalTag({ approval }: { approval: TWaveApproval }) {
  if (approval.decision) {
    return (
      <Tooltip title={approval.reason}>
        <Tag color={approval.decision === 'Approved' ? 'success' : 'error'} tabIndex={0}>
          {approval.decision} by {approval.decidedBy}
          {approval.decidedAt ? `, ${formatDateTime(approval.decidedAt)}` : ''}
        </Tag>
      </Tooltip>
    );
  }
  return approval.required ? <Tag color="gold">Needs approval</Tag> : null;
}

/** A wave's bake (issue 25 point 2): baking until when, with the probes failing now; or its result. Nothing when it has not baked. */
function BakeLine({ bake, baking }: { bake: TWaveBake | null; baking: boolean }) {
  const now = useNow(15_000);
  if (!bake) return null;
  if (!bake.result && !baking) return <Tag>Bake stopped with the rollout</Tag>;
  if (bake.result) {
    return (
      <Tag color={bake.result === 'Passed' ? 'success' : 'error'}>
        Bake {bake.result === 'Passed' ? 'passed' : `failed: ${bake.unhealthy} unhealthy`}
      </Tag>
    );
  }
  const left = Math.max(0, Math.ceil((Date.parse(bake.endsAt) - now) / 60_000));
  return (
    <Flex vertical gap={2} role="status" aria-label="Bake">
      <Typography.Text>
        <Tag color="processing">Baking</Tag>
        until {formatDateTime(bake.endsAt)} ({left} min left){bake.unhealthy > 0 ? `, ${bake.unhealthy} unhealthy so far` : ''}
      </Typography.Text>
      {bake.failingProbes.map((p) => (
        <Typography.Text key={`${p.machineId}-${p.kind}`} type="danger">
          {p.machineName}: {p.kind === 'launcher' ? 'launcher' : 'site master'} probe failing since {formatDateTime(p.since)} ({p.url})
        </Typography.Text>
      ))}
    </Flex>
  );
}

export function WaveProgress({ wave }: { wave: TRolloutWave }) {
  const { done, failed, total } = waveDone(wave.counts);
  const size = total || wave.size;
  const percent = size === 0 ? 0 : Math.round(((done + failed) / size) * 100);
  const success = size === 0 ? 0 : Math.round((done / size) * 100);
  return (
    <div aria-label={`Wave ${wave.index + 1}`} role="group" style={{ marginBottom: 12 }}>
      <Flex justify="space-between" wrap gap={8}>
        <Typography.Text strong>
          Wave {wave.index + 1} · {wave.size} target{wave.size === 1 ? '' : 's'} <Tag color={STATE_COLORS[wave.status]}>{wave.status}</Tag>
        </Typography.Text>
        <Typography.Text type="secondary">
          {wave.startedAt ? `started ${formatDateTime(wave.startedAt)}` : 'not started'}
          {wave.finishedAt ? `, finished ${formatDateTime(wave.finishedAt)}` : ''}
        </Typography.Text>
      </Flex>
      <Progress
        percent={percent}
        success={{ percent: success }}
        status={failed > 0 ? 'exception' : wave.status === 'Running' || wave.status === 'Baking' ? 'active' : 'normal'}
        format={() => `${done + failed}/${size}`}
        aria-label={`Wave ${wave.index + 1} progress`}
      />
      <Flex gap={8} wrap align="center">
        <CountTags counts={wave.counts} />
        <ApprovalTag approval={wave.approval} />
      </Flex>
      <BakeLine bake={wave.bake} baking={wave.status === 'Baking'} />
    </div>
  );
}
