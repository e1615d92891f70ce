/**
 * The demo and scale fleets (DESIGN §4): catalogues, accounts, sites, machines,
 * cloud instances, launcher logins and a few historical machine tasks.
 *
 * - `demo`: about 150 accounts of every class (spec 1 §9, DESIGN §6) and about 400
 *   machines whose flags give every machine status filter and alert icon matches,
 *   inside and outside Customer Production; the complete catalogues of spec 3 §3.
 * - `scale`: the same catalogues, 10,000 accounts and exactly 100,000 machines,
 *   for benchmarks.
 *
 * Both are deterministic: seeded generators and the fixed {@link BASE_DATE}
 * (2026-11-01T00:00:00Z) give the same rows on every run, except the sealed
 * launcher passwords, whose IV is random (the plain passwords are the same).
 * Everything is written in one transaction. Expects the fleet tables to be empty
 * (catalogue names are unique); accounts, sites and machines get explicit ids
 * after any existing ones, and their sequences are moved past them.
 *
 * Machine versions and version states: `versions.ts` (desired versions are the
 * accounts' machineConfig resolved; `scale` seeds no version states).
 *
 * Demo issues: `issues.ts`.
 *
 * Known limitations: no operations, backups, request statistics are seeded (the audit history is, see audit.ts); machine tasks are only
 * finished ones (no New or Running task for the engine to pick up).
 */
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { accounts, accountSettings, cloudInstances, launcherLogins, machines, machineTasks, sites, users, versionStates } from '../db/schema.js';
import { loadSoftwareSnapshot } from '../engine/desired-state/desired-state.repository.js';
import type { SecretBox } from '../lib/secret-box.js';
import { planAccounts, type FleetShape } from './accounts.js';
import { seedImagesAndClasses, seedReferenceData } from './catalogue.js';
import { seedConfigCatalogues, seedTemplates } from './configs.js';
import { insertMany, insertManyAsJson, maxId, syncSequence } from './insert.js';
import { planFleetRows } from './machines.js';
import { Rng } from './random.js';
import { fitMachineTotal, SCALE_MACHINES, SCALE_SHAPE } from './scale.js';
import { seedAuditHistory } from './audit.js';
import { seedDemoIssues } from './issues.js';
import { seedSoftware, type SoftwareCatalogue } from './software.js';
import { assignVersions } from './versions.js';

/**
 * 150 accounts: 28 Experimental, 26 Internal Testing, 20 Internal Production,
 * 36 Customer Staging, 22 Customer Production, 8 On Premise, 10 Add-on; 4 of them
 * templates; a third AllInOne, the rest 2 to 4 sites: about 400 machines.
 */
export const DEMO_SHAPE: FleetShape = {
  classCounts: { 1: 28, 2: 26, 3: 20, 4: 36, 5: 22, 6: 8, 200: 10 },
  templates: 4,
  allInOneShare: 0.35,
  sites: [2, 4],
};

/** Seeds of the generators: catalogue, demo accounts, scale accounts, audit history, demo issues. */
const SEED = { catalogue: 42, demo: 4242, scale: 424242, audit: 4243, issues: 4244 } as const;

/** Seeds the fleet of `opts.kind` into `db` (see the module docstring). */
export async function seedFleet(db: Db, opts: { kind: 'demo' | 'scale'; secrets: SecretBox }): Promise<void> {
  await db.transaction(async (tx) => {
    const { software, licenseTemplates } = await seedCatalogues(tx);
    const scale = opts.kind === 'scale';
    const rng = new Rng(scale ? SEED.scale : SEED.demo);
    const firstIds = { account: (await maxId(tx, 'accounts')) + 1, site: (await maxId(tx, 'sites')) + 1, machine: (await maxId(tx, 'machines')) + 1 };

    const plans = planAccounts(rng, { shape: scale ? SCALE_SHAPE : DEMO_SHAPE, software, licenseTemplates, firstId: firstIds.account });
    if (scale) fitMachineTotal(plans, SCALE_MACHINES);
    const rows = planFleetRows(rng, plans, {
      firstSiteId: firstIds.site,
      firstMachineId: firstIds.machine,
      logins: scale ? [2, 2] : [2, 5],
      tasks: !scale,
      secrets: opts.secrets,
    });

    const versionStateRows = assignVersions(rows.machines, {
      configOf: new Map(plans.map((p) => [p.row.id, p.row.machineConfig ?? {}])),
      snapshot: await loadSoftwareSnapshot(tx),
      catalogue: software,
      states: !scale,
    });

    const split = plans.map(({ row }) => {
      const { licenseConfig, machineConfig, backupConfig, idleSchedules, ...account } = row;
      return { account, settings: { accountId: row.id, licenseConfig, machineConfig, backupConfig, idleSchedules } };
    });
    await insertManyAsJson(tx, accounts, split.map((s) => s.account));
    await insertManyAsJson(tx, accountSettings, split.map((s) => s.settings));
    await insertManyAsJson(tx, sites, rows.sites);
    await insertManyAsJson(tx, machines, rows.machines);
    await insertManyAsJson(tx, cloudInstances, rows.cloudInstances);
    await insertMany(tx, launcherLogins, rows.launcherLogins);
    await insertMany(tx, machineTasks, rows.machineTasks);
    await insertManyAsJson(tx, versionStates, versionStateRows);
    for (const table of ['accounts', 'sites', 'machines']) await syncSequence(tx, table);
    if (!scale) await seedAuditHistory(tx, new Rng(SEED.audit), plans.map((p) => p.row));
    if (!scale) await seedDemoIssues(tx, new Rng(SEED.issues), rows);
  });
}

/** Seeds every catalogue table (the same for demo and scale). */
async function seedCatalogues(tx: DbOrTx): Promise<{ software: SoftwareCatalogue; licenseTemplates: string[] }> {
  const rng = new Rng(SEED.catalogue);
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
  const irmnVersionIds = await seedReferenceData(tx);
  const software = await seedSoftware(tx, rng);
  await seedImagesAndClasses(tx, rng, { irmnVersionIds, software });
  await seedConfigCatalogues(tx, irmnVersionIds);
  const licenseTemplates = await seedTemplates(tx, rng, { software, adminId: admin?.id ?? null });
  return { software, licenseTemplates };
}
