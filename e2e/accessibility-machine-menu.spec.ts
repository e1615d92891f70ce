/**
 * axe on the machines panel's dialogs (issue 9 §7, issue 10): each entry of a
 * machine's row menu (the tasks drawer, the operation dialogs of the action
 * table, the viewers of a machine), Create Machine and Notification. No serious
 * or critical violation may be found.
 *
 * The machine belongs to an account made for this file through the API; nothing
 * is saved (each dialog is closed with Escape).
 */
import { describe, it } from 'vitest';
import { pagesPerTest, settled, signIn, useBrowserAndAdmin } from './browser.js';
import { checkDialog, LONG, makeRunningMachine } from './accessibility-fixtures.js';

useBrowserAndAdmin();

const openPage = pagesPerTest();

describe('accessibility of the machines panel (axe: no serious or critical violation)', () => {
  it('machines panel: each dialog of the row menu, Create Machine, Notification', { timeout: LONG }, async () => {
    const machine = await makeRunningMachine();
    const { page } = await openPage();
    await signIn(page, 'admin', 'admin', `/account/edit/${machine.accountId}`);
    const row = page.locator(`.ant-table-tbody tr[data-row-key="${machine.id}"]`);
    await row.waitFor();
    await settled(page);
    const entries = ['Terminate', 'Recreate', 'Reset last operation', 'Change instance type', 'Switch MMA class', 'Component configs', 'Deployer config', 'View credential', 'View tasks'];
    // The operation dialogs of the action table (issue 10).
    entries.push('Queue operations', 'Force backup', 'Restore backup', 'Force populate', 'Reinstall sample data', 'Publish sample data', 'Create AMI', 'Test latest code');
    entries.push('Operation logs', 'Version info', 'Server status');
    for (const entry of entries) {
      await row.getByRole('button', { name: `Actions for ${machine.name}` }).click();
      await page.getByRole('menuitem', { name: entry }).click();
      await checkDialog(page, `machine menu: ${entry}`);
    }
    await page.getByRole('button', { name: 'Create Machine' }).click();
    await checkDialog(page, 'Create Machine');
    await row.getByRole('checkbox', { name: `Select ${machine.name}` }).check();
    await page.getByRole('button', { name: 'Notification' }).click();
    await checkDialog(page, 'Notification');
  });

});
