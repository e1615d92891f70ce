/**
 * Alert icons of an account row (spec 1 §2 Accounts list; DESIGN §6): one icon
 * per machine status the account has machines in (needs admin/panic,
 * unmanaged, manual maintenance, stopped, turbo, obsolete, idle), each with a
 * tooltip (mounted at the first hover or focus: `LazyTooltip`) and an
 * aria-label equal to the status label.
 */
import type { ReactNode } from 'react';
import { Flex } from 'antd';
import { LazyTooltip } from '../../../components/LazyTooltip';
import {
  CoffeeOutlined,
  DisconnectOutlined,
  FireFilled,
  HistoryOutlined,
  PauseCircleOutlined,
  ThunderboltFilled,
  ToolOutlined,
} from '@ant-design/icons';
import { MACHINE_STATUSES, MACHINE_STATUS_LABELS, type TMachineStatus, type TMachineStatusCounts } from '@fleet/contracts';

const ICONS: Record<TMachineStatus, (label: string) => ReactNode> = {
  needsAdmin: (label) => <FireFilled aria-label={label} style={{ color: '#cf1322' }} />,
  unmanaged: (label) => <DisconnectOutlined aria-label={label} style={{ color: '#d48806' }} />,
  manualMaintenance: (label) => <ToolOutlined aria-label={label} style={{ color: '#1677ff' }} />,
  stopped: (label) => <PauseCircleOutlined aria-label={label} style={{ color: '#595959' }} />,
  turbo: (label) => <ThunderboltFilled aria-label={label} style={{ color: '#d46b08' }} />,
  obsolete: (label) => <HistoryOutlined aria-label={label} style={{ color: '#722ed1' }} />,
  idle: (label) => <CoffeeOutlined aria-label={label} style={{ color: '#08979c' }} />,
};

export function AlertIcons({ stats }: { stats: TMachineStatusCounts }) {
  const present = MACHINE_STATUSES.filter((status) => stats[status] > 0);
  if (present.length === 0) return null;
  return (
    <Flex gap={6}>
      {present.map((status) => {
        const label = MACHINE_STATUS_LABELS[status];
        return (
          <LazyTooltip key={status} title={`${label}: ${stats[status]} of ${stats.machines} machine(s)`}>
            <span tabIndex={0} style={{ fontSize: 16 }}>
              {ICONS[status](label)}
            </span>
          </LazyTooltip>
        );
      })}
    </Flex>
  );
}
