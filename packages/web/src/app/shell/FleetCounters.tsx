/**
 * The mini dashboard of the top bar (spec 3 §2.9): machine counts per class
 * (Experimental, Internal Testing, Internal Production, Customer Staging,
 * Customer Production, On Premise; the server leaves out Customer Production for
 * users without the group) and the needs-admin, turbo and unmanaged counts, from
 * `GET /machines/stats` every 30 s. Shows nothing until the first answer;
 * failures are silent.
 */
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TMachineStats } from '@fleet/contracts';
import { TOP_BAR_CLASS_IDS } from '@fleet/contracts/constants';
import { useMachineStats } from '../../features/fleet/api/queries';

function classOrder(stats: TMachineStats['classStats']) {
  const rank = (id: number) => {
    const i = TOP_BAR_CLASS_IDS.indexOf(id);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...stats].sort((a, b) => rank(a.class.id) - rank(b.class.id));
}

function Counter({ label, value, color, hint }: { label: string; value: number; color?: string; hint: string }) {
  return (
    <Tooltip title={hint}>
      <Tag color={value > 0 ? color : undefined} style={{ marginInlineEnd: 0, fontSize: 12, paddingInline: 6 }}>
        {label}: <strong>{value}</strong>
      </Tag>
    </Tooltip>
  );
}

export function FleetCounters() {
  const { data } = useMachineStats(true);
  if (!data) return null;

  return (
    // One line that scrolls sideways on narrow screens, so the page never jumps when counters arrive.
    <Flex component="section" aria-label="Fleet counters" gap={4} align="center" wrap style={{ minHeight: 24 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Machines
      </Typography.Text>
      {classOrder(data.classStats).map(({ class: cls, total }) => (
        <Counter key={cls.id} label={cls.name} value={total} color="blue" hint={`Machines of class ${cls.name}`} />
      ))}
      <Counter label="Needs admin" value={data.needsAdmin} color="red" hint="Machines that need an administrator (panic)" />
      <Counter label="Turbo" value={data.turbo} color="orange" hint="Machines in turbo mode" />
      <Counter label="Unmanaged" value={data.unmanaged} color="gold" hint="Machines not managed by the MMA" />
    </Flex>
  );
}
