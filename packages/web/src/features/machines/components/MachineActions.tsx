/**
 * The actions cell of a machine row (spec 2 §2.2, §2.3, §6): with write
 * permission, Start when the instance is not running and Stop when it is; then
 * the row menu built from the action table (`machine-actions.tsx`) entries the
 * user is offered. A `link` entry is a real link opening a new tab.
 *
 * Start and Stop are disabled while any task of the machine is New or Running;
 * unfinished StartMachine / StopMachine tasks show a loading indicator on the
 * power button. Start also needs an instance to start (a machine being created
 * has none yet).
 */
import { Button, Dropdown, Flex, type MenuProps } from 'antd';
import { CaretRightOutlined, MoreOutlined, PoweroffOutlined } from '@ant-design/icons';
import type { TMachine } from '@fleet/contracts';
import type { MachineAction } from '../machine-actions';
import { hasUnfinished, isBusy } from '../machine-status';

interface Props {
  machine: TMachine;
  /** The action table entries offered to the user (already filtered by permission). */
  actions: readonly MachineAction[];
  canWrite: boolean;
  onStart(machine: TMachine): void;
  onStop(machine: TMachine): void;
  onAction(action: MachineAction, machine: TMachine): void;
}

/** Menu items of the offered actions, a divider between groups. */
function menuItems(actions: readonly MachineAction[], machine: TMachine): NonNullable<MenuProps['items']> {
  const items: NonNullable<MenuProps['items']> = [];
  actions.forEach((action, i) => {
    if (i > 0 && actions[i - 1]!.group !== action.group) items.push({ type: 'divider' });
    items.push({
      key: action.key,
      danger: action.danger,
      disabled: action.disabled?.(machine) ?? false,
      icon: action.icon(machine),
      label:
        action.kind === 'link' ? (
          <a href={action.href(machine)} target="_blank" rel="noopener noreferrer">
            {action.label}
          </a>
        ) : (
          action.label
        ),
    });
  });
  return items;
}

export function MachineActions({ machine, actions, canWrite, onStart, onStop, onAction }: Props) {
  const busy = isBusy(machine);
  const powering = hasUnfinished(machine, ['StartMachine', 'StopMachine']);
  const running = machine.instance?.status === 'running';

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const action = actions.find((a) => a.key === key);
    // A link opens its own tab.
    if (action && action.kind !== 'link') onAction(action, machine);
  };

  return (
    <Flex gap={4} wrap={false}>
      {canWrite &&
        (running ? (
          <Button
            size="small"
            icon={<PoweroffOutlined aria-hidden />}
            loading={powering}
            disabled={busy}
            aria-label={`Stop ${machine.name}`}
            onClick={() => onStop(machine)}
          >
            Stop
          </Button>
        ) : (
          <Button
            size="small"
            icon={<CaretRightOutlined aria-hidden />}
            loading={powering}
            disabled={busy || machine.instance === null}
            aria-label={`Start ${machine.name}`}
            onClick={() => onStart(machine)}
          >
            Start
          </Button>
        ))}
      {actions.length > 0 && (
        <Dropdown trigger={['click']} menu={{ items: menuItems(actions, machine), onClick }}>
          <Button size="small" icon={<MoreOutlined aria-hidden />} aria-label={`Actions for ${machine.name}`} />
        </Dropdown>
      )}
    </Flex>
  );
}
