/**
 * The actions cell of a machine row (spec 2 §2.2, §2.3, §6): with write
 * permission, Start when the instance is not running and Stop when it is; then
 * the row menu built from the action table (`machine-actions.tsx`) entries the
 * user is offered. A `link` entry is a real link opening a new tab.
 *
 * Start runs at once; Stop only asks (`onStop`: the panel opens its
 * confirmation, `StopDialog`). Both are disabled while any task of the machine
 * is New or Running; unfinished StartMachine / StopMachine tasks show a loading
 * indicator on the power button. Start also needs an instance to start (a
 * machine being created has none yet).
 *
 * The row menu shows the table's groups under their titles (antd item groups),
 * destructive entries in red. It fits the window: its height is at most the
 * room beside the button (`menuMaxHeight`, measured as it opens; the menu
 * opens on the roomier side) and it scrolls inside itself beyond that. The
 * menu takes the focus as it opens, so the arrow keys move through it at
 * once from its first entry, Enter runs the entry (its dialog stays open: the
 * key's default action is prevented) and Escape closes it (focus back on the
 * button).
 */
import { useRef, useState } from 'react';
import { Button, Dropdown, Flex, type MenuProps } from 'antd';
import { CaretRightOutlined, MoreOutlined, PoweroffOutlined } from '@ant-design/icons';
import type { TMachine } from '@fleet/contracts';
import { actionMenuGroups, type MachineAction } from '../machine-actions';
import { hasUnfinished, isBusy } from '../machine-status';

interface Props {
  machine: TMachine;
  /** The action table entries offered to the user (already filtered by permission). */
  actions: readonly MachineAction[];
  canWrite: boolean;
  onStart(machine: TMachine): void;
  /** Asks to stop the machine (the panel confirms first). */
  onStop(machine: TMachine): void;
  onAction(action: MachineAction, machine: TMachine): void;
}

/** Space kept between the menu and the window's edge, and the button's gap (px). */
const MENU_MARGIN = 16;
/** Least height of the row menu (px): a few entries, even beside a button at the window's edge. */
const MENU_MIN_HEIGHT = 160;

/**
 * Largest height (px) of the row menu opened from a button at `button` (its
 * viewport rectangle, px) in a window `windowHeight` px high: the larger of
 * the room below and above the button, less `MENU_MARGIN`, at least
 * `MENU_MIN_HEIGHT`. The dropdown opens below, or above when that side is the
 * roomier one, so the whole menu box is inside the window.
 */
export function menuMaxHeight(button: { top: number; bottom: number }, windowHeight: number): number {
  const room = Math.max(windowHeight - button.bottom, button.top) - MENU_MARGIN;
  return Math.max(MENU_MIN_HEIGHT, Math.floor(room));
}

/** Menu items of the offered actions: one titled item group per action group. */
function menuItems(actions: readonly MachineAction[], machine: TMachine): NonNullable<MenuProps['items']> {
  return actionMenuGroups(actions).map((group) => ({
    type: 'group' as const,
    key: group.key,
    label: group.title,
    children: group.actions.map((action) => ({
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
    })),
  }));
}

export function MachineActions({ machine, actions, canWrite, onStart, onStop, onAction }: Props) {
  const busy = isBusy(machine);
  const powering = hasUnfinished(machine, ['StartMachine', 'StopMachine']);
  const running = machine.instance?.status === 'running';
  const menuButton = useRef<HTMLButtonElement>(null);
  const [maxHeight, setMaxHeight] = useState<number | undefined>(undefined);

  const onClick: MenuProps['onClick'] = ({ key, domEvent }) => {
    const action = actions.find((a) => a.key === key);
    // A link opens its own tab.
    if (!action || action.kind === 'link') return;
    // Chosen with Enter: the key's default action would click the button the opening dialog focuses (its Close or Cancel).
    if (domEvent.type === 'keydown') domEvent.preventDefault();
    onAction(action, machine);
  };
  const onOpenChange = (open: boolean) => {
    const button = menuButton.current;
    if (!button) return;
    if (open) {
      setMaxHeight(menuMaxHeight(button.getBoundingClientRect(), window.innerHeight));
      return;
    }
    // Closing with the focus in the menu (Escape, an entry chosen): the focus goes back to the button. antd's own
    // return on Escape is lost, its popup closing first; a dialog the entry opens then takes the focus itself.
    const focused = document.activeElement;
    if (focused === document.body || focused?.closest('.machine-actions-menu')) button.focus();
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
        <Dropdown
          trigger={['click']}
          autoFocus
          onOpenChange={onOpenChange}
          menu={{ items: menuItems(actions, machine), onClick, className: 'machine-actions-menu', style: { maxHeight } }}
        >
          <Button ref={menuButton} size="small" icon={<MoreOutlined aria-hidden />} aria-label={`Actions for ${machine.name}`} />
        </Dropdown>
      )}
    </Flex>
  );
}
