/**
 * The actions cell of a machine row (spec 2 §2.2, §2.3; write permission only):
 * Start when the instance is not running, Stop when it is, and the row menu
 * (Terminate, Recreate, Change instance type, Switch MMA class, Component
 * configs, Deployer config, View credential, View tasks).
 *
 * Start, Stop and Terminate are disabled while any task of the machine is New
 * or Running; unfinished StartMachine / StopMachine tasks show a loading
 * indicator on the power button, an unfinished TerminateMachine task on Terminate.
 * Start also needs an instance to start (a machine being created has none yet).
 *
 * Known limitations: the operation entries of the menu (backup, restore,
 * populate, …) belong to later work and are absent.
 */
import { Button, Dropdown, Flex, type MenuProps } from 'antd';
import {
  ApartmentOutlined,
  CaretRightOutlined,
  DeleteOutlined,
  KeyOutlined,
  LoadingOutlined,
  MoreOutlined,
  PoweroffOutlined,
  RedoOutlined,
  SettingOutlined,
  SwapOutlined,
  ToolOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { TMachine } from '@fleet/contracts';
import { hasUnfinished, isBusy } from '../machine-status';

export type MachineMenuAction =
  | 'terminate'
  | 'recreate'
  | 'change-instance-type'
  | 'switch-class'
  | 'component-config'
  | 'deployer-config'
  | 'credential'
  | 'view-tasks';

interface Props {
  machine: TMachine;
  onStart(machine: TMachine): void;
  onStop(machine: TMachine): void;
  onMenu(action: MachineMenuAction, machine: TMachine): void;
}

export function MachineActions({ machine, onStart, onStop, onMenu }: Props) {
  const busy = isBusy(machine);
  const powering = hasUnfinished(machine, ['StartMachine', 'StopMachine']);
  const terminating = hasUnfinished(machine, ['TerminateMachine']);
  const running = machine.instance?.status === 'running';

  const items: MenuProps['items'] = [
    {
      key: 'terminate',
      label: 'Terminate',
      danger: true,
      disabled: busy,
      icon: terminating ? <LoadingOutlined aria-hidden /> : <DeleteOutlined aria-hidden />,
    },
    { key: 'recreate', label: 'Recreate', icon: <RedoOutlined aria-hidden /> },
    { key: 'change-instance-type', label: 'Change instance type', icon: <SwapOutlined aria-hidden /> },
    { key: 'switch-class', label: 'Switch MMA class', icon: <ApartmentOutlined aria-hidden /> },
    { type: 'divider' },
    { key: 'component-config', label: 'Component configs', icon: <SettingOutlined aria-hidden /> },
    { key: 'deployer-config', label: 'Deployer config', icon: <ToolOutlined aria-hidden /> },
    { key: 'credential', label: 'View credential', icon: <KeyOutlined aria-hidden /> },
    { type: 'divider' },
    { key: 'view-tasks', label: 'View tasks', icon: <UnorderedListOutlined aria-hidden /> },
  ];

  return (
    <Flex gap={4} wrap={false}>
      {running ? (
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
      )}
      <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => onMenu(key as MachineMenuAction, machine) }}>
        <Button size="small" icon={<MoreOutlined aria-hidden />} aria-label={`Actions for ${machine.name}`} />
      </Dropdown>
    </Flex>
  );
}
