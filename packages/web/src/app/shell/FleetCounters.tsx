/**
 * The mini dashboard of the top bar (spec 3 §2.9): machine counts per class
 * (Experimental, Internal Testing, Internal Production, Customer Staging,
 * Customer Production, On Premise) and the needs-admin, turbo and unmanaged
 * counts, from `GET /machines/stats` every 30 s. Until the first answer it
 * shows the same chips with a placeholder for each count (the classes' names
 * from the contracts), so the bar has its final size from the first paint and
 * nothing below it moves when the counts arrive (issue 26); failures are silent.
 *
 * Every count is of one scope (features/fleet/count-scope.ts, named in its
 * tooltip), the same for every user, and each chip is a link to the Machines
 * viewer filtered to exactly what it counts, whose total equals the chip
 * (issue 24 point 4), less the machines the user cannot open
 * (`stats.restricted`: Customer Production without group
 * CustomerProductionAccess, which the tooltip names). The chip of a class the
 * user cannot open is no link: its tooltip says why.
 */
import { Link } from 'react-router';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TMachineStats } from '@fleet/contracts';
import { TOP_BAR_CLASS_IDS, className } from '@fleet/contracts/constants';
import { useMachineStats } from '../../features/fleet/api/queries';
import { FreezeButton } from './FleetFreeze';
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

interface CounterProps {
  label: string;
  value: number;
  color?: string;
  what: string;
  filters: MachinesViewerFilters;
  /** How many of `value` the user cannot open. */
  restricted?: number;
  /** The user can open none of them (a class the user cannot open): no link. */
  closed?: boolean;
}

function Counter({ label, value, color, what, filters, restricted = 0, closed = false }: CounterProps) {
  const tag = (
    <Tag color={value > 0 ? color : undefined} style={{ marginInlineEnd: 0, fontSize: 12, paddingInline: 6, cursor: closed ? 'default' : 'pointer' }}>
      {label}: <strong>{value}</strong>
    </Tag>
  );
  const counted = `${SCOPE} ${what} (${HIDDEN_CLASS_RULE}).`;
  if (closed) {
    const why = `${counted} Not opened: you are not in group CustomerProductionAccess.`;
    return (
      <Tooltip title={why}>
        <span tabIndex={0} role="note" aria-label={`${label}: ${value} — ${why}`}>
          {tag}
        </span>
      </Tooltip>
    );
  }
  const opens =
    restricted > 0
      ? `Opens in the Machines viewer the ${value - restricted} you can open; ${restricted} are of Customer Production or in its accounts (group CustomerProductionAccess only).`
      : 'Opens them in the Machines viewer.';
  return (
    <Tooltip title={`${counted} ${opens}`}>
      <Link to={machinesViewerLink(filters)} aria-label={`${label}: ${value} — open in the Machines viewer`}>
        {tag}
      </Link>
    </Tooltip>
  );
}

/** A chip's count before the first answer: as wide as a three-digit count, so the bar does not reflow when it arrives. */
const PENDING_COUNT = '\u2007\u2007\u2007';

/** The bar before the first answer: every chip it will show, with no count and no link. */
function PendingCounters() {
  const labels = [...TOP_BAR_CLASS_IDS.map(className), 'Needs admin', 'Turbo', 'Unmanaged'];
  return (
    <Flex component="section" aria-label="Fleet counters" aria-busy gap={4} align="center" wrap style={{ minHeight: 24 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Machines
      </Typography.Text>
      {labels.map((label) => (
        <Tag key={label} style={{ marginInlineEnd: 0, fontSize: 12, paddingInline: 6 }}>
          {label}: <strong>{PENDING_COUNT}</strong>
        </Tag>
      ))}
      <FreezeButton />
    </Flex>
  );
}

export function FleetCounters() {
  const { data } = useMachineStats(true);
  if (!data) return <PendingCounters />;

  return (
    <Flex component="section" aria-label="Fleet counters" gap={4} align="center" wrap style={{ minHeight: 24 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Machines
      </Typography.Text>
      {classOrder(data.classStats).map(({ class: cls, total, restricted }) => (
        <Counter
          key={cls.id}
          label={cls.name}
          value={total}
          color="blue"
          what={`of class ${cls.name}`}
          filters={{ classId: cls.id }}
          restricted={restricted}
          closed={data.restricted.classIds.includes(cls.id)}
        />
      ))}
      <Counter
        label="Needs admin"
        value={data.needsAdmin}
        color="red"
        what="that need an administrator (panic)"
        filters={{ needsAdmin: true }}
        restricted={data.restricted.needsAdmin}
      />
      <Counter label="Turbo" value={data.turbo} color="orange" what="in turbo mode" filters={{ turbo: true }} restricted={data.restricted.turbo} />
      <Counter label="Unmanaged" value={data.unmanaged} color="gold" what="not managed by the MMA" filters={{ unmanaged: true }} restricted={data.restricted.unmanaged} />
      <FreezeButton />
    </Flex>
  );
}
