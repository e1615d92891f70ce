/**
 * The plan of 'Roll out in waves' (DESIGN §15; issue 13 point 3): the waves (a
 * number of targets or a percentage of all; the targets left form one more
 * wave), the failure threshold per wave (more than N targets or P % failed halts
 * the rollout, checked as each target finishes: "halts at the 2nd failure"),
 * how many targets of a wave deploy at once (none: all), the wave timeout in
 * minutes, the bake after each wave (5 minutes offered; issue 25 point 2) with
 * the probes' success it needs, and who approves the waves (issue
 * 25: the default for the targets, which is every wave on a production class;
 * every wave; the first wave only; none) within how many days. Defaults: 1
 * target, 10 %, the rest; 1 target or 10 %; 30 minutes; 7 days. Shows the wave
 * sizes for `total` targets.
 */
import { Button, Flex, Form, InputNumber, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_APPROVAL_TIMEOUT_MINUTES, MAX_BAKE_MINUTES, MAX_UPDATE_TARGETS, ROLLOUT_APPROVALS, ROLLOUT_ON_HALT, type TRolloutApproval, type TRolloutOnHalt, type TWaveSize } from '@fleet/contracts';
import { APPROVAL_LABELS, ON_HALT_LABELS, thresholdText, waveSizes, type RolloutPlanValue } from '../updater-payload';

export type { RolloutPlanValue };

const MINUTES_PER_DAY = 24 * 60;

interface Props {
  value: RolloutPlanValue;
  total: number;
  onChange(plan: RolloutPlanValue): void;
}

/** Most waves a plan may list (the contract's bound). */
const MAX_WAVES = 20;

export function RolloutPlanEditor({ value, total, onChange }: Props) {
  const setWave = (i: number, wave: TWaveSize) => onChange({ ...value, waves: value.waves.map((w, j) => (j === i ? wave : w)) });
  const sizes = waveSizes(value.waves, total);
  return (
    <div aria-label="Rollout plan" role="group">
      <Typography.Text strong>Waves</Typography.Text>
      {value.waves.map((wave, i) => (
        <Flex key={i} gap={8} align="center" style={{ marginTop: 6 }}>
          <Typography.Text style={{ width: 64 }}>Wave {i + 1}</Typography.Text>
          <InputNumber
            aria-label={`Wave ${i + 1} size`}
            min={wave.kind === 'count' ? 1 : 0.1}
            max={wave.kind === 'count' ? MAX_UPDATE_TARGETS : 100}
            value={wave.value}
            onChange={(v) => v !== null && setWave(i, { ...wave, value: v })}
          />
          <Select<'count' | 'percent'>
            aria-label={`Wave ${i + 1} unit`}
            style={{ width: 110 }}
            value={wave.kind}
            options={[
              { value: 'count', label: 'targets' },
              { value: 'percent', label: '%' },
            ]}
            onChange={(kind) => setWave(i, kind === 'count' ? { kind, value: Math.max(1, Math.round(wave.value)) } : { kind, value: Math.min(100, wave.value) })}
          />
          <Button
            type="text"
            aria-label={`Remove wave ${i + 1}`}
            icon={<DeleteOutlined aria-hidden />}
            onClick={() => onChange({ ...value, waves: value.waves.filter((_, j) => j !== i) })}
          />
        </Flex>
      ))}
      <Flex gap={8} align="center" style={{ marginTop: 6 }}>
        <Button
          size="small"
          icon={<PlusOutlined aria-hidden />}
          disabled={value.waves.length >= MAX_WAVES}
          onClick={() => onChange({ ...value, waves: [...value.waves, { kind: 'percent', value: 25 }] })}
        >
          Add wave
        </Button>
        <Typography.Text type="secondary" data-testid="wave-sizes">
          Then the rest. For {total} targets: {sizes.join(', ')}
        </Typography.Text>
      </Flex>
      <Form layout="inline" component="div" style={{ marginTop: 12, rowGap: 8 }}>
        <Form.Item label="Halt when more than" htmlFor="plan-max-failed">
          <InputNumber
            id="plan-max-failed"
            min={0}
            max={MAX_UPDATE_TARGETS}
            value={value.maxFailedTargets}
            addonAfter="targets"
            onChange={(v) => v !== null && onChange({ ...value, maxFailedTargets: v })}
          />
        </Form.Item>
        <Form.Item label="or" htmlFor="plan-max-failed-percent">
          <InputNumber
            id="plan-max-failed-percent"
            min={0}
            max={100}
            value={value.maxFailedPercent}
            addonAfter="% of a wave fail"
            onChange={(v) => v !== null && onChange({ ...value, maxFailedPercent: v })}
          />
        </Form.Item>
        <Form.Item label="At once, at most" htmlFor="plan-max-concurrent">
          <Flex gap={4}>
            <InputNumber
              id="plan-max-concurrent"
              min={value.maxConcurrent?.kind === 'percent' ? 0.1 : 1}
              max={value.maxConcurrent?.kind === 'percent' ? 100 : MAX_UPDATE_TARGETS}
              placeholder="all"
              value={value.maxConcurrent?.value ?? null}
              onChange={(v) =>
                onChange({
                  ...value,
                  maxConcurrent: v === null ? undefined : value.maxConcurrent?.kind === 'percent' ? { kind: 'percent', value: v } : { kind: 'count', value: Math.max(1, Math.round(v)) },
                })
              }
            />
            <Select<'count' | 'percent'>
              aria-label="At once, at most unit"
              style={{ width: 150 }}
              value={value.maxConcurrent?.kind ?? 'count'}
              options={[
                { value: 'count', label: 'targets' },
                { value: 'percent', label: '% of the wave' },
              ]}
              onChange={(kind) =>
                value.maxConcurrent &&
                onChange({
                  ...value,
                  maxConcurrent: kind === 'count' ? { kind, value: Math.max(1, Math.round(value.maxConcurrent.value)) } : { kind, value: Math.min(100, value.maxConcurrent.value) },
                })
              }
            />
          </Flex>
        </Form.Item>
        <Form.Item label="Wave timeout" htmlFor="plan-timeout">
          <InputNumber
            id="plan-timeout"
            min={1}
            max={1440}
            value={value.waveTimeoutMinutes}
            addonAfter="min"
            onChange={(v) => v !== null && onChange({ ...value, waveTimeoutMinutes: v })}
          />
        </Form.Item>
        <Form.Item label="Bake each wave" htmlFor="plan-bake">
          <InputNumber id="plan-bake" min={0} max={MAX_BAKE_MINUTES} precision={0} value={value.bakeMinutes} addonAfter="min" onChange={(v) => v !== null && onChange({ ...value, bakeMinutes: v })} />
        </Form.Item>
        <Form.Item label="with probes succeeding at least" htmlFor="plan-min-probe">
          <InputNumber
            id="plan-min-probe"
            min={0}
            max={100}
            disabled={value.bakeMinutes === 0}
            value={value.minProbeSuccessPercent}
            addonAfter="%"
            onChange={(v) => v !== null && onChange({ ...value, minProbeSuccessPercent: v })}
          />
        </Form.Item>
        <Form.Item label="Approval" htmlFor="plan-approval">
          <Select<TRolloutApproval | 'default'>
            id="plan-approval"
            style={{ width: 290 }}
            value={value.approval ?? 'default'}
            options={[
              { value: 'default', label: 'Default (production: every wave)' },
              ...ROLLOUT_APPROVALS.map((a) => ({ value: a, label: APPROVAL_LABELS[a] })),
            ]}
            onChange={(a) => onChange({ ...value, approval: a === 'default' ? undefined : a })}
          />
        </Form.Item>
        <Form.Item label="Approve within" htmlFor="plan-approval-timeout">
          <InputNumber
            id="plan-approval-timeout"
            min={1}
            max={MAX_APPROVAL_TIMEOUT_MINUTES / MINUTES_PER_DAY}
            precision={0}
            value={Math.max(1, Math.round(value.approvalTimeoutMinutes / MINUTES_PER_DAY))}
            addonAfter="days"
            onChange={(v) => v !== null && onChange({ ...value, approvalTimeoutMinutes: v * MINUTES_PER_DAY })}
          />
        </Form.Item>
        <Form.Item label="When it halts" htmlFor="plan-on-halt">
          <Select<TRolloutOnHalt>
            id="plan-on-halt"
            style={{ width: 290 }}
            value={value.onHalt}
            options={ROLLOUT_ON_HALT.map((o) => ({ value: o, label: ON_HALT_LABELS[o] }))}
            onChange={(onHalt) => onChange({ ...value, onHalt })}
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary" data-testid="plan-threshold">
        {thresholdText(value)}
        {value.maxConcurrent ? '; no more of it is released once it does' : ''}
        {value.bakeMinutes > 0
          ? `. Each wave bakes ${value.bakeMinutes} min once deployed: a machine with a new probe or server status issue, or probes under ${value.minProbeSuccessPercent} %, fails`
          : ''}
        {value.onHalt === 'rollback' ? '. A halt rolls the applied targets back to their previous versions by itself' : ''}
        .
      </Typography.Text>
    </div>
  );
}
