/**
 * The Updater's bulk actions menu (spec 3 §2.8; issue 13 point 1): in machine
 * mode Batch Component Configs, Batch Deployer Configs, Start and Stop of the
 * selected machines; in both modes Notification (the machines' notification
 * dialog with the selected machines or accounts as targets).
 *
 * Start and Stop go through the single-machine calls (`POST
 * /machines/{id}/start|stop`), 5 at a time, at most
 * {@link MAX_START_STOP_MACHINES} machines; the toast counts the machines
 * whose task was queued and names the failures ('Error occurred starting
 * machine').
 */
import { useState } from 'react';
import { Button, Dropdown, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { api } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { NotificationDialog } from '../../machines/components/NotificationDialog';
import type { SeenTarget } from '../use-target-selection';
import type { UpdaterMode } from '../use-updater-params';
import { BatchConfigDialog } from './BatchConfigDialog';

/** Most machines one Start or Stop of the menu sends (one call per machine). */
export const MAX_START_STOP_MACHINES = 100;

type Open = 'component' | 'deployer' | 'notification' | undefined;

interface Props {
  mode: UpdaterMode;
  ids: number[];
  seen: ReadonlyMap<number, SeenTarget>;
}

export function BulkActions({ mode, ids, seen }: Props) {
  const toast = useToast();
  const [open, setOpen] = useState<Open>(undefined);
  const [busy, setBusy] = useState(false);
  const none = ids.length === 0;

  const startStop = async (action: 'start' | 'stop') => {
    setBusy(true);
    const failed: string[] = [];
    for (let i = 0; i < ids.length; i += 5) {
      const chunk = ids.slice(i, i + 5);
      const answers = await Promise.allSettled(chunk.map((id) => api.post(`machines/${id}/${action}`)));
      answers.forEach((a, j) => {
        if (a.status === 'rejected') failed.push(seen.get(chunk[j]!)?.name ?? `Machine ${chunk[j]}`);
      });
    }
    setBusy(false);
    if (failed.length > 0) toast.errorList(action === 'start' ? 'Error occurred starting machine' : 'Error occurred stopping machine', failed.slice(0, 10));
    if (failed.length < ids.length) toast.success(`${action === 'start' ? 'Start' : 'Stop'} queued for ${ids.length - failed.length} machines`);
  };

  const tooManyForStart = ids.length > MAX_START_STOP_MACHINES;
  const items: MenuProps['items'] = [
    ...(mode === 'machine'
      ? [
          { key: 'component', label: 'Batch Component Configs', disabled: none },
          { key: 'deployer', label: 'Batch Deployer Configs', disabled: none },
          { type: 'divider' as const },
          { key: 'start', label: `Start machines${tooManyForStart ? ` (at most ${MAX_START_STOP_MACHINES})` : ''}`, disabled: none || tooManyForStart },
          { key: 'stop', label: `Stop machines${tooManyForStart ? ` (at most ${MAX_START_STOP_MACHINES})` : ''}`, disabled: none || tooManyForStart },
          { type: 'divider' as const },
        ]
      : []),
    { key: 'notification', label: 'Notification', disabled: none },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'start' || key === 'stop') void startStop(key);
    else setOpen(key as Open);
  };

  const machineOptions = mode === 'machine' ? ids.map((id) => ({ id, name: seen.get(id)?.name ?? `Machine ${id}` })) : [];
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button loading={busy}>
          Bulk actions <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      {(open === 'component' || open === 'deployer') && <BatchConfigDialog kind={open} machineIds={ids} onClose={() => setOpen(undefined)} />}
      {open === 'notification' && (
        <NotificationDialog
          machines={machineOptions}
          selectedIds={mode === 'machine' ? ids : []}
          selectedAccountIds={mode === 'account' ? ids : []}
          canWrite
          onClose={() => setOpen(undefined)}
        />
      )}
    </>
  );
}
