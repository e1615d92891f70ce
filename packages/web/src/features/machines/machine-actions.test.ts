/**
 * The action table of the machine menu (spec 2 §2.3, §5, §6): who is offered
 * what, every dialog of §2.3 reachable from it, which entries warn first on an
 * unmanaged or panicked machine, and the View operations link.
 */
import { describe, expect, it } from 'vitest';
import { PERMISSION_WRITE, type TMachine } from '@fleet/contracts';
import { MACHINE_ACTIONS, offeredActions, operationsViewerHref } from './machine-actions';

const writer = (p: string) => p === PERMISSION_WRITE;
const viewer = () => false;

describe('offeredActions', () => {
  it('offers a user without write permission View operations only', () => {
    expect(offeredActions(MACHINE_ACTIONS, viewer).map((a) => a.label)).toEqual(['View operations']);
  });

  it('offers a writer every entry of spec 2 §2.3, in groups', () => {
    const labels = offeredActions(MACHINE_ACTIONS, writer).map((a) => a.label);
    expect(labels).toEqual(MACHINE_ACTIONS.map((a) => a.label));
    for (const entry of [
      'Reset failure',
      'Reset last operation',
      'Recreate',
      'Reinstall sample data',
      'Force populate',
      'Force backup',
      'Restore backup',
      'Publish sample data',
      'Create AMI',
      'Queue operations',
      'Change instance type',
      'Switch MMA class',
      'View tasks',
      'Component configs',
      'Deployer config',
      'Test latest code',
      'View credential',
      'Terminate',
      'Operation logs',
      'Version info',
      'Server status',
      'View operations',
    ]) {
      expect(labels).toContain(entry);
    }
    expect(new Set(MACHINE_ACTIONS.map((a) => a.key)).size).toBe(MACHINE_ACTIONS.length);
  });

  it('keeps groups together (one divider between two groups)', () => {
    const groups = MACHINE_ACTIONS.map((a) => a.group);
    const changes = groups.filter((g, i) => i > 0 && g !== groups[i - 1]).length;
    expect(changes).toBe(new Set(groups).size - 1);
  });
});

describe('entries', () => {
  it('warns before exactly the entries that queue an operation by a dialog', () => {
    const warned = MACHINE_ACTIONS.filter((a) => a.operation).map((a) => a.key);
    expect(warned.sort()).toEqual(
      ['create-ami', 'force-backup', 'force-populate', 'publish-sample-data', 'queue-operations', 'reinstall-sample-data', 'restore-backup', 'test-latest-code'].sort(),
    );
  });

  it('every dialog entry has a component; View operations links to the viewer of the machine', () => {
    for (const action of MACHINE_ACTIONS) {
      if (action.kind === 'dialog') expect(typeof action.Dialog).toBe('function');
    }
    const link = MACHINE_ACTIONS.find((a) => a.key === 'view-operations');
    expect(link?.kind).toBe('link');
    expect(link?.kind === 'link' && link.href({ id: 42 })).toBe('#/viewer/operations?machine=42');
    expect(operationsViewerHref({ id: 7 })).toBe('#/viewer/operations?machine=7');
  });

  it('Terminate waits while a task is unfinished; Reset failure only for a machine with a failure state', () => {
    const terminate = MACHINE_ACTIONS.find((a) => a.key === 'terminate')!;
    const busy = { tasks: [{ status: 'Running' }] } as TMachine;
    const idle = { tasks: [] as unknown[] } as TMachine;
    expect(terminate.disabled?.(busy)).toBe(true);
    expect(terminate.disabled?.(idle)).toBe(false);
    const reset = MACHINE_ACTIONS.find((a) => a.key === 'reset-failure')!;
    expect(reset.disabled?.({ needsAdmin: false, failCounter: 0 } as TMachine)).toBe(true);
    expect(reset.disabled?.({ needsAdmin: true, failCounter: 3 } as TMachine)).toBe(false);
  });
});
