/**
 * The mini dashboard of the top bar (spec 3 §2.9): machine counts per class
 * (Experimental, Internal Testing, Internal Production, Customer Staging,
 * Customer Production, On Premise; the server leaves out Customer Production for
 * users without the group) and the needs-admin, turbo and unmanaged counts, from
 * `GET /machines/stats` every 30 s. Shows nothing until the first answer;
 * failures are silent.
 *
 * Every count is of one scope (features/fleet/count-scope.ts, named in its
 * tooltip), and each chip is a link to the Machines viewer filtered to exactly
 * what it counts, whose total equals the chip (issue 24 point 4).
 */
import { Link } from 'react-router';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TMachineStats } from '@fleet/contracts';
import { TOP_BAR_CLASS_IDS } from '@fleet/contracts/constants';
import { useMachineStats } from '../../features/fleet/api/queries';
import { FLEET_COUNT_SCOPE, HIDDEN_CLASS_RULE } from '../../features/fleet/count-scope';
import { machinesViewerLink, type MachinesViewerFilters } from '../../features/viewer/use-machines-viewer-filters';

function classOrder(stats: TMachineStats['classStats']) {
  const rank = (id: number) => {
    const i = TOP_BAR_CLASS_IDS.indexOf(id);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...stats].sort((a, b) => rank(a.class.id) - rank(b.class.id));
}

/** The scope every chip counts, as the start of its tooltip. */
const SCOPE = `${FLEET_COUNT_SCOPE[0]!.toUpperCase()}${FLEET_COUNT_SCOPE.slice(1)}`;

function Counter({ label, value, color, what, filters }: { label: string; value: number; color?: string; what: string; filters: MachinesViewerFilters }) {
  return (
    <Tooltip title={`${SCOPE} ${what} (${HIDDEN_CLASS_RULE}). Opens them in the Machines viewer.`}>
      <Link to={machinesViewerLink(filters)} aria-label={`${label}: ${value} — open in the Machines viewer`}>
        <Tag color={value > 0 ? color : undefined} style={{ marginInlineEnd: 0, fontSize: 12, paddingInline: 6, cursor: 'pointer' }}>
          {label}: <strong>{value}</strong>
        </Tag>
      </Link>
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
        <Counter key={cls.id} label={cls.name} value={total} color="blue" what={`of class ${cls.name}`} filters={{ classId: cls.id }} />
      ))}
      <Counter label="Needs admin" value={data.needsAdmin} color="red" what="that need an administrator (panic)" filters={{ needsAdmin: true }} />
      <Counter label="Turbo" value={data.turbo} color="orange" what="in turbo mode" filters={{ turbo: true }} />
      <Counter label="Unmanaged" value={data.unmanaged} color="gold" what="not managed by the MMA" filters={{ unmanaged: true }} />
    </Flex>
  );
}
