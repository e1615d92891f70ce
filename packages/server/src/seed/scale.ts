/**
 * The scale fleet for benchmarks (DESIGN §4 `SEED=scale`): 10,000 accounts and
 * exactly 100,000 machines, with the demo catalogue.
 */
import { CLASS_INTERNAL_PRODUCTION } from '@fleet/contracts';
import type { AccountPlan, FleetShape } from './accounts.js';

export const SCALE_ACCOUNTS = 10_000;
export const SCALE_MACHINES = 100_000;

/**
 * 10,000 accounts: 1,000 add-ons and 4 templates (no machines); a fifth of the
 * others AllInOne (one machine each), the rest InstancePerSiteMaster with 4 to 21
 * sites, so that machines average 10 per account.
 */
export const SCALE_SHAPE: FleetShape = {
  classCounts: { 1: 1_500, 2: 1_500, 3: 1_000, 4: 2_500, 5: 2_000, 6: 500, 200: 1_000 },
  templates: 4,
  allInOneShare: 0.2,
  sites: [4, 21],
};

/** Machines of a plan: AllInOne one, InstancePerSiteMaster a launcher plus one per site. */
function machineCount(plan: AccountPlan): number {
  if (!plan.hasMachines) return 0;
  return plan.policy === 'AllInOne' ? 1 : 1 + plan.siteCount;
}

/**
 * Adds or removes sites of internal InstancePerSiteMaster accounts (whose
 * descriptions do not name a site count) until the fleet has exactly `target`
 * machines; raises licenseConfig.maxSites where a site count passes it.
 */
export function fitMachineTotal(plans: AccountPlan[], target: number): void {
  const adjustable = plans.filter((p) => p.hasMachines && p.policy === 'InstancePerSiteMaster' && p.row.classId <= CLASS_INTERNAL_PRODUCTION);
  let diff = target - plans.reduce((sum, p) => sum + machineCount(p), 0);
  for (let i = 0; diff !== 0 && adjustable.length > 0; i++) {
    const plan = adjustable[i % adjustable.length];
    if (!plan) break;
    if (diff > 0 && plan.siteCount < 40) {
      plan.siteCount++;
      diff--;
    } else if (diff < 0 && plan.siteCount > 2) {
      plan.siteCount--;
      diff++;
    }
    if (i > adjustable.length * 80) break;
  }
  for (const plan of adjustable) {
    const license = plan.row.licenseConfig ?? {};
    if (typeof license.maxSites === 'number' && license.maxSites < plan.siteCount) license.maxSites = plan.siteCount;
  }
}
