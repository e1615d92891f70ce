/**
 * One rollout (route `/rollouts/{id}`, permission write; DESIGN §15; issue 13
 * point 4): status and reason, the plan, per-wave progress bars with counts,
 * the targets table (paged, by wave and state), Pause, Resume and Abort
 * (Abort asks first), and Approve wave or Reject while the current wave waits
 * for approval (issue 25; `components/WaveApproval.tsx`), Roll back of a rollout
 * that no longer moves (`components/RollbackButton.tsx`) and the links between
 * a rollout and its rollback; what a Running rollout waits for (the fleet
 * freeze, a change window) in a banner. Live: RolloutProgress events of `/taskHub` update the
 * page (`useTaskHub` keeps the channel open), with a poll every 15 s behind
 * them until the rollout is aborted or completed. Unknown ids show an error
 * with a link back to the list.
 */
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Flex, Modal, Result, Select, Spin, Table, Tag, Typography, type TableProps } from 'antd';
import { Link, useParams } from 'react-router';
import { ROLLOUT_TARGET_STATES, type TRollout, type TRolloutTarget } from '@fleet/contracts';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime, formatValue } from '../../lib/format';
import { useTaskHub } from '../machines/api/task-hub';
import { useRolloutAction } from './api/mutations';
import { isSettled, useRollout, useRolloutTargets } from './api/queries';
import { CountTags, STATE_COLORS, WaveProgress } from './components/RolloutProgress';
import { componentLabel, fieldLabel } from '../../lib/field-labels';
import { modeLabel, versionLabel } from '../software-versions/version-format';
import { APPROVAL_LABELS, ON_HALT_LABELS, thresholdText, waveSizeText } from './updater-payload';
import { WaveApproval } from './components/WaveApproval';
import { RollbackButton } from './components/RollbackButton';

const TARGETS_PAGE = 20;

const TARGET_COLUMNS: TableProps<TRolloutTarget>['columns'] = [
  { key: 'name', title: 'Target', dataIndex: 'name' },
  { key: 'wave', title: 'Wave', dataIndex: 'wave', width: 80, render: (w: number) => w + 1 },
  { key: 'state', title: 'State', dataIndex: 'state', width: 150, render: (s: string) => <Tag color={STATE_COLORS[s]}>{s}</Tag> },
  { key: 'detail', title: 'Detail', dataIndex: 'detail', render: (d: string | null) => d ?? '' },
  { key: 'updated', title: 'Updated', dataIndex: 'updatedAt', width: 170, render: (t: string) => formatDateTime(t, DATE_TIME_SECONDS_FORMAT) },
];

/** `minutes` as the plan shows a wait: whole days when it is some, else hours, else minutes ('7 days', '2 hours', '45 minutes'). */
function durationText(minutes: number): string {
  const [n, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The rollout's software update: each software or library it changes (by its label), with its mode and version (`branch / hash`). */
function configText(config: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (!key.endsWith('Mode') || value === 'Skip') continue;
    const name = key.replace(/VersionMode$|Mode$/, '');
    const version = config[`${name}Version`];
    const label = key.endsWith('VersionMode') ? componentLabel(name) : fieldLabel(key).replace(/ mode$/, '');
    parts.push(`${label}: ${modeLabel(String(value))}${typeof version === 'string' && version ? ` ${versionLabel(version)}` : ''}`);
  }
  return parts.join('; ') || formatValue(config);
}

function Controls({ rollout }: { rollout: TRollout }) {
  const [modal, holder] = Modal.useModal();
  const pause = useRolloutAction('pause');
  const resume = useRolloutAction('resume');
  const abort = useRolloutAction('abort');
  const settled = isSettled(rollout);
  return (
    <Flex gap={8}>
      <Button disabled={rollout.status !== 'Running'} loading={pause.isPending} onClick={() => pause.mutate(rollout.id)}>
        Pause
      </Button>
      <Button disabled={rollout.status !== 'Paused' && rollout.status !== 'Halted'} loading={resume.isPending} onClick={() => resume.mutate(rollout.id)}>
        Resume
      </Button>
      <Button
        danger
        disabled={settled}
        loading={abort.isPending}
        onClick={() =>
          void modal.confirm({
            title: 'Abort rollout',
            content: 'Targets whose wave has not started will not be updated. Targets already updated keep their new versions. Abort the rollout?',
            okText: 'Abort',
            okButtonProps: { danger: true },
            cancelText: 'Cancel',
            onOk: () => abort.mutateAsync(rollout.id).catch(() => undefined),
          })
        }
      >
        Abort
      </Button>
      <RollbackButton rollout={rollout} />
      {holder}
    </Flex>
  );
}

export default function RolloutPage() {
  const id = Number(useParams().id);
  const rollout = useRollout(id);
  const live = useTaskHub();
  const [page, setPage] = useState(1);
  const [wave, setWave] = useState<number | undefined>(undefined);
  const [state, setState] = useState<string | undefined>(undefined);
  const targets = useRolloutTargets(id, { startIndex: (page - 1) * TARGETS_PAGE, limit: TARGETS_PAGE, wave, state }, !isSettled(rollout.data));

  if (rollout.isLoading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (rollout.isError || !rollout.data) {
    return (
      <Result
        status="warning"
        title={`Rollout ${Number.isInteger(id) ? id : ''} could not be loaded`}
        extra={<Link to="/rollouts">All rollouts</Link>}
      />
    );
  }
  const r = rollout.data;
  const plan = r.plan;
  return (
    <Flex vertical gap={16}>
      <Card
        title={
          <Flex gap={8} align="center">
            Rollout {r.id}
            <Tag color={STATE_COLORS[r.status]} data-testid="rollout-status">
              {r.status}
            </Tag>
          </Flex>
        }
        extra={<Controls rollout={r} />}
      >
        {r.reason && <Alert type={r.status === 'Halted' ? 'error' : 'info'} showIcon title={r.reason} style={{ marginBottom: 12 }} />}
        {r.waitingFor && <Alert type="warning" showIcon title={r.waitingFor} style={{ marginBottom: 12 }} data-testid="rollout-waiting" />}
        <div style={{ marginBottom: 12 }}>
          <WaveApproval rollout={r} />
        </div>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'kind', label: 'Targets', children: r.kind },
            { key: 'by', label: 'Started by', children: `${r.createdBy}, ${formatDateTime(r.createdAt)}` },
            {
              key: 'update',
              label: 'Update',
              children: r.rollbackOf === null ? configText(r.config) : `Each target back to the versions it had before rollout ${r.rollbackOf}`,
            },
            {
              key: 'plan',
              label: 'Plan',
              children:
                `Waves ${plan.waves.map(waveSizeText).join(', ') || 'none'}, then the rest; ${thresholdText(plan).replace(/^H/, 'h')}; ` +
                `${plan.maxConcurrent ? `at most ${waveSizeText(plan.maxConcurrent)} of a wave at once; ` : ''}wave timeout ${plan.waveTimeoutMinutes} min; ` +
                (plan.bakeMinutes > 0 ? `each wave bakes ${plan.bakeMinutes} min (probes at least ${plan.minProbeSuccessPercent} %)` : 'no bake'),
            },
            {
              key: 'approval',
              label: 'Approval',
              children:
                `${APPROVAL_LABELS[plan.approval ?? 'none']}` +
                (plan.approval && plan.approval !== 'none'
                  ? `, within ${durationText(plan.approvalTimeoutMinutes)}${r.secondApproverRequired ? `, by a user other than ${r.createdBy}` : ''}`
                  : ''),
            },
            { key: 'onHalt', label: 'When it halts', children: ON_HALT_LABELS[plan.onHalt] },
            ...(r.rollbackOf !== null
              ? [{ key: 'rollbackOf', label: 'Rolls back', children: <Link to={`/rollouts/${r.rollbackOf}`}>Rollout {r.rollbackOf}</Link> }]
              : []),
            ...(r.rolledBackBy !== null
              ? [{ key: 'rolledBackBy', label: 'Rolled back by', children: <Link to={`/rollouts/${r.rolledBackBy}`}>Rollout {r.rolledBackBy}</Link> }]
              : []),
            { key: 'counts', label: 'All targets', children: <CountTags counts={r.counts} /> },
            {
              key: 'activity',
              label: 'Activity',
              children: r.activityId !== null ? <Link to={`/activity?activityId=${r.activityId}`}>Activity {r.activityId}</Link> : '—',
            },
          ]}
        />
        {!live && (
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
            Live updates are not connected; the page refreshes every 15 s.
          </Typography.Text>
        )}
      </Card>
      <Card title="Waves" size="small">
        {r.waves.map((w) => (
          <WaveProgress key={w.index} wave={w} />
        ))}
      </Card>
      <Card
        title="Targets"
        size="small"
        extra={
          <Flex gap={8}>
            <Select<number>
              aria-label="Wave filter"
              allowClear
              placeholder="All waves"
              style={{ width: 130 }}
              value={wave}
              options={r.waves.map((w) => ({ value: w.index, label: `Wave ${w.index + 1}` }))}
              onChange={(v) => {
                setWave(v);
                setPage(1);
              }}
            />
            <Select<string>
              aria-label="State filter"
              allowClear
              placeholder="All states"
              style={{ width: 140 }}
              value={state}
              options={ROLLOUT_TARGET_STATES.map((s) => ({ value: s, label: s }))}
              onChange={(v) => {
                setState(v);
                setPage(1);
              }}
            />
          </Flex>
        }
      >
        {targets.isError ? (
          <Alert type="error" showIcon title="The targets could not be loaded" action={<Button size="small" onClick={() => void targets.refetch()}>Retry</Button>} />
        ) : (
          <Table<TRolloutTarget>
            size="small"
            rowKey={(t) => `${t.id}`}
            aria-label="Rollout targets"
            columns={TARGET_COLUMNS}
            dataSource={targets.data?.items ?? []}
            loading={targets.isFetching && !targets.data}
            locale={{ emptyText: 'No targets match' }}
            pagination={{ current: page, pageSize: TARGETS_PAGE, total: targets.data?.totalItems ?? 0, showSizeChanger: false, onChange: setPage }}
          />
        )}
      </Card>
    </Flex>
  );
}
