/**
 * The warning before running an operation on an unmanaged or panicked machine
 * (spec 2 §5: "Running an operation on an unmanaged or panicked machine warns
 * that it will not run immediately"). The machine management agent leaves an
 * unmanaged machine alone and stops working on a machine in panic (needsAdmin)
 * until its failure state is reset (DESIGN §6), so the operation waits.
 *
 * `useOperationWarning()` answers `[warnFirst, holder]`: `warnFirst(machine, run)`
 * runs `run` at once for a managed machine that is not in panic; otherwise it
 * asks first (Continue / Cancel) and runs `run` on Continue. Render `holder`.
 * The list a dialog was opened from can be a moment behind (a refetch sent
 * before a Managed switch committed, answered after it): before it warns,
 * `warnFirst` reads the machine again (`GET /machines/{id}`, put into the
 * cache) and warns only if the server still says so; if that read fails, it
 * warns on what it has.
 *
 * The panel asks it before opening every action-table entry marked `operation`
 * (queue operations, force backup, restore, populate, sample data, AMI, test
 * latest code); the config editors ask it before saving, since a saved
 * configuration reaches the machine with the agent's next deployment.
 */
import type { ReactElement } from 'react';
import { Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { TMachine } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { applyMachine } from '../api/task-cache';

export const OPERATION_WARNING_TITLE = 'The operation will not run immediately';

/** Why operations on the machine wait, one sentence per reason; empty when they do not. */
export function operationWarnings(machine: Pick<TMachine, 'name' | 'managed' | 'needsAdmin'>): string[] {
  const lines: string[] = [];
  if (!machine.managed) lines.push(`Machine ${machine.name} is unmanaged: operations on it wait until it is managed again.`);
  if (machine.needsAdmin) lines.push(`Machine ${machine.name} is in panic: operations on it wait until its failure state is reset.`);
  return lines;
}

export function useOperationWarning(): [(machine: TMachine, run: () => unknown) => void, ReactElement] {
  const [modal, holder] = Modal.useModal();
  const queryClient = useQueryClient();
  const warnFirst = async (cached: TMachine, run: () => unknown) => {
    let machine = cached;
    if (operationWarnings(cached).length > 0) {
      machine = await api.get<TMachine>(`machines/${cached.id}`).then(
        (fresh) => {
          applyMachine(queryClient, fresh);
          return fresh;
        },
        () => cached,
      );
    }
    const lines = operationWarnings(machine);
    if (lines.length === 0) {
      run();
      return;
    }
    void modal.confirm({
      title: OPERATION_WARNING_TITLE,
      content: (
        <>
          {lines.map((line) => (
            <p key={line} style={{ margin: '0 0 8px' }}>
              {line}
            </p>
          ))}
          <p style={{ margin: 0 }}>Continue anyway?</p>
        </>
      ),
      okText: 'Continue',
      cancelText: 'Cancel',
      onOk: () => {
        run();
      },
    });
  };
  return [(machine, run) => void warnFirst(machine, run), holder];
}
