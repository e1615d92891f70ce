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
 *
 * The panel asks it before opening every action-table entry marked `operation`
 * (queue operations, force backup, restore, populate, sample data, AMI, test
 * latest code); the config editors ask it before saving, since a saved
 * configuration reaches the machine with the agent's next deployment.
 */
import type { ReactElement } from 'react';
import { Modal } from 'antd';
import type { TMachine } from '@fleet/contracts';

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
  const warnFirst = (machine: TMachine, run: () => unknown) => {
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
  return [warnFirst, holder];
}
