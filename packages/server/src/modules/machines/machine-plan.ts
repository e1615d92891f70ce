/**
 * Which machines an account may still create, and the row of a new one
 * (DESIGN §6 instance policies; spec 2 §2.3 Create Machine, §7).
 *
 * - AllInOne: one machine, launcher and site master of the first site.
 * - InstancePerSiteMaster: one launcher machine (no site) and one site master
 *   machine per site.
 * - Add-on accounts (class 200) have no machines.
 * A planned machine is creatable while the account has no live machine in its
 * place. Names follow the demo fleet: `<url name>-launcher`, `<url name>-<site url name>`.
 *
 * The new machine's component configuration is the catalogue's defaults for it
 * (`machine-configs`), set once the row exists.
 */
import { CLASS_ADD_ON, type TCreatableMachine } from '@fleet/contracts';
import type { machines } from '../../db/schema.js';
import { DEFAULT_INSTANCE_TYPE_ID } from '../../engine/tasks/machine-state.repository.js';
import type { MachinePlanFacts } from './machines.repository.js';

export function creatableMachines(facts: MachinePlanFacts): TCreatableMachine[] {
  const { account, sites, machines: live } = facts;
  if (!account || account.classId === CLASS_ADD_ON) return [];
  const taken = (isLauncher: boolean, siteId: number | null) => live.some((m) => m.isLauncher === isLauncher && m.siteId === siteId);
  const out: TCreatableMachine[] = [];
  if (account.instancePolicy === 'AllInOne') {
    const first = sites[0];
    if (first && !live.some((m) => m.isLauncher)) {
      out.push({ name: `${account.urlFriendlyName}-launcher`, isLauncher: true, isSiteMaster: true, siteId: first.id, siteName: first.name });
    }
    return out;
  }
  if (!live.some((m) => m.isLauncher)) {
    out.push({ name: `${account.urlFriendlyName}-launcher`, isLauncher: true, isSiteMaster: false, siteId: null, siteName: null });
  }
  for (const site of sites) {
    if (!taken(false, site.id)) {
      out.push({ name: `${account.urlFriendlyName}-${site.urlFriendlyName}`, isLauncher: false, isSiteMaster: true, siteId: site.id, siteName: site.name });
    }
  }
  return out;
}

/** The row of a new machine for a creatable choice; its instance type is the account's licensed one. */
export function newMachineValues(facts: MachinePlanFacts, choice: TCreatableMachine): typeof machines.$inferInsert {
  const account = facts.account!;
  const licensed = Number(account.licenseConfig?.cloudInstanceType);
  return {
    accountId: account.id,
    siteId: choice.siteId,
    name: choice.name,
    classId: account.classId,
    isLauncher: choice.isLauncher,
    isSiteMaster: choice.isSiteMaster,
    instanceTypeId: Number.isInteger(licensed) && licensed > 0 ? licensed : DEFAULT_INSTANCE_TYPE_ID,
    bundleVersion: account.bundleVersion,
  };
}
