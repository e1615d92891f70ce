/**
 * The action table of the machine menu (spec 2 §2.3, §5, §6; issue 24): who is
 * offered what, every dialog of §2.3 reachable from it, the menu's groups in
 * order with the destructive entries last and red, which entries warn first on
 * an unmanaged or panicked machine, the View operations link, the menu's height
 * beside its button, and the Stop question.
 */
import { describe, expect, it } from 'vitest';
import { PERMISSION_WRITE, type TMachine } from '@fleet/contracts';
import { menuMaxHeight } from './components/MachineActions';
import { ACTION_GROUPS, actionMenuGroups, MACHINE_ACTIONS, offeredActions, operationsViewerHref } from './machine-actions';
import { stopConfirmText } from './operations/ConfirmActionDialog';

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

  it('keeps each group together, the groups in the order of ACTION_GROUPS', () => {
    const groups = MACHINE_ACTIONS.map((a) => a.group);
    const runs = groups.filter((g, i) => i === 0 || g !== groups[i - 1]);
    expect(runs).toEqual(ACTION_GROUPS.map((g) => g.key));
  });
});

describe('menu groups', () => {
  it('titles the groups Diagnostics, Data, Configuration, Lifecycle, each with its entries in table order', () => {
    const groups = actionMenuGroups(offeredActions(MACHINE_ACTIONS, writer));
    expect(groups.map((g) => g.title)).toEqual(['Diagnostics', 'Data', 'Configuration', 'Lifecycle']);
    expect(groups.flatMap((g) => g.actions)).toEqual(MACHINE_ACTIONS);
    expect(groups.find((g) => g.key === 'diagnostics')?.actions.map((a) => a.label)).toEqual([
      'View tasks',
      'Operation logs',
      'View operations',
      'Version info',
      'Server status',
    ]);
  });

  it('leaves out the groups with nothing offered: a viewer sees Diagnostics with View operations', () => {
    const groups = actionMenuGroups(offeredActions(MACHINE_ACTIONS, viewer));
    expect(groups.map((g) => [g.title, g.actions.map((a) => a.label)])).toEqual([['Diagnostics', ['View operations']]]);
    expect(actionMenuGroups([])).toEqual([]);
  });

  it('marks the destructive entries red and puts them after the others of their group; the menu ends with Recreate and Terminate', () => {
    const danger = MACHINE_ACTIONS.filter((a) => a.danger).map((a) => a.label);
    expect(danger).toEqual(['Restore backup', 'Reinstall sample data', 'Reset last operation', 'Recreate', 'Terminate']);
    for (const group of actionMenuGroups(MACHINE_ACTIONS)) {
      const firstDanger = group.actions.findIndex((a) => a.danger);
      if (firstDanger >= 0) expect(group.actions.slice(firstDanger).every((a) => a.danger), group.title).toBe(true);
    }
    expect(MACHINE_ACTIONS.slice(-2).map((a) => a.label)).toEqual(['Recreate', 'Terminate']);
    // Reset failure only clears the failure state (no data or instance lost): not red.
    expect(MACHINE_ACTIONS.find((a) => a.key === 'reset-failure')?.danger).toBeUndefined();
  });
});

describe('menuMaxHeight', () => {
  it('is the room on the roomier side of the button, less a 16 px margin', () => {
    // A button near the top of a 900 px window: the room below.
    expect(menuMaxHeight({ top: 200, bottom: 224 }, 900)).toBe(660);
    // Near the bottom: the room above (the menu opens upwards).
    expect(menuMaxHeight({ top: 800, bottom: 824 }, 900)).toBe(784);
    // In the middle of a 720 px window.
    expect(menuMaxHeight({ top: 348, bottom: 372 }, 720)).toBe(332);
  });

  it('keeps at least 160 px, even for a button scrolled half out of a tiny window', () => {
    expect(menuMaxHeight({ top: 60, bottom: 84 }, 150)).toBe(160);
    expect(menuMaxHeight({ top: -10, bottom: 14 }, 100)).toBe(160);
  });
});

describe('stopConfirmText', () => {
  const machine = { name: 'acme-sm-1', siteName: 'Main', isLauncher: false, isSiteMaster: true };
  it('names the machine and the site it takes offline', () => {
    expect(stopConfirmText(machine)).toBe(
      'This will stop machine acme-sm-1 and its cloud instance. Site Main cannot be reached until the machine is started again.',
    );
  });

  it("names the account's launcher for a launcher, and falls back to the sites it serves", () => {
    expect(stopConfirmText({ ...machine, isLauncher: true })).toContain("Site Main and the account's launcher cannot be reached");
    expect(stopConfirmText({ ...machine, isSiteMaster: false, isLauncher: true })).toContain(
      "The account's launcher, and so its sites, cannot be reached",
    );
    expect(stopConfirmText({ ...machine, siteName: null })).toContain('The sites it serves cannot be reached');
  });
});

describe('entries', () => {
  it('warns before exactly the entries that queue an operation by a dialog', () => {
    const warned = MACHINE_ACTIONS.filter((a) => a.operation).map((a) => a.key);
    expect(warned.sort()).toEqual(
      ['create-ami', 'force-backup', 'force-populate', 'publish-sample-data', 'queue-operations', 'reinstall-sample-data', 'restore-backup', 'test-latest-code'].sort(),
    );
  });

  it('every dialog entry has a component (a function, or one loaded at its first opening); View operations links to the viewer of the machine', () => {
    const lazy = Symbol.for('react.lazy');
    for (const action of MACHINE_ACTIONS) {
      if (action.kind !== 'dialog') continue;
      const component = action.Dialog as unknown as { $$typeof?: symbol };
      expect(typeof component === 'function' || component.$$typeof === lazy, action.key).toBe(true);
    }
    // The row menu's dialogs load when first opened (issue 26): the big ones are lazy.
    const lazyKeys = MACHINE_ACTIONS.filter((a) => a.kind === 'dialog' && (a.Dialog as unknown as { $$typeof?: symbol }).$$typeof === lazy).map((a) => a.key);
    expect(lazyKeys).toEqual(expect.arrayContaining(['operation-logs', 'force-backup', 'restore-backup', 'credential', 'change-instance-type']));
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
