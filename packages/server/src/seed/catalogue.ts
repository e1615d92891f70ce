/**
 * Reference data of the seeded fleet (spec 3 §3, spec 1 §3, DESIGN §6): MMA classes
 * and their MMA instances, regions, instance types, IRMN versions, SaaS images,
 * features, reporting categories and customers. Rows are the same on every run.
 */
import { ACCOUNT_CLASSES, CLASS_ADD_ON, CLASS_CUSTOMER_PRODUCTION, CLASS_ON_PREMISE, type TOperationTypeName } from '@fleet/contracts';
import type { DbOrTx } from '../db/client.js';
import {
  customers,
  features,
  instanceTypes,
  irmnVersions,
  mmaClasses,
  mmaInstances,
  operationTypes,
  regions,
  reportingCategories,
  cloudImages,
  saasImages,
} from '../db/schema.js';
import { insertMany } from './insert.js';
import { CUSTOMERS, PROVIDER_DOMAIN } from './names.js';
import { daysBefore, type Rng } from './random.js';
import type { SoftwareCatalogue } from './software.js';

export const REGIONS = [
  { name: 'US East (N. Virginia)', cloudCode: 'us-east-1' },
  { name: 'US West (Oregon)', cloudCode: 'us-west-2' },
  { name: 'EU (Ireland)', cloudCode: 'eu-west-1' },
  { name: 'EU (Frankfurt)', cloudCode: 'eu-central-1' },
  { name: 'Asia Pacific (Sydney)', cloudCode: 'ap-southeast-2' },
] as const;

/** Machine instance types; id 2 must be t2.medium (spec 1 §5). Storage GB, cost in cloud credits per hour. */
export const MACHINE_TYPES = [
  { id: 1, name: 't2.small', storageSize: 50, cloudCreditCost: 0.25 },
  { id: 2, name: 't2.medium', storageSize: 80, cloudCreditCost: 0.5 },
  { id: 3, name: 't3.large', storageSize: 100, cloudCreditCost: 0.9 },
  { id: 4, name: 'm5.large', storageSize: 120, cloudCreditCost: 1.2 },
  { id: 5, name: 'm5.xlarge', storageSize: 200, cloudCreditCost: 2.4 },
  { id: 6, name: 'm5.2xlarge', storageSize: 300, cloudCreditCost: 4.8 },
  { id: 7, name: 'r5.large', storageSize: 150, cloudCreditCost: 1.6 },
  { id: 8, name: 'r5.xlarge', storageSize: 250, cloudCreditCost: 3.2 },
  { id: 9, name: 'c5.xlarge', storageSize: 120, cloudCreditCost: 2.0 },
] as const;

/** Redis (cache) instance types: memory GB, no disk. */
export const REDIS_TYPES = [
  { id: 20, name: 'cache.t3.micro', memorySize: 0.5, cloudCreditCost: 0.1 },
  { id: 21, name: 'cache.t3.small', memorySize: 1.37, cloudCreditCost: 0.2 },
  { id: 22, name: 'cache.t3.medium', memorySize: 3.09, cloudCreditCost: 0.4 },
  { id: 23, name: 'cache.m5.large', memorySize: 6.38, cloudCreditCost: 0.9 },
] as const;

export const IRMN_VERSIONS = [
  { name: '7.6', status: 'Released', isDefault: false },
  { name: '8.0', status: 'Released', isDefault: false },
  { name: '8.1', status: 'Released', isDefault: true },
  { name: '8.2', status: 'InDevelopment', isDefault: false },
  { name: '9.0', status: 'Planned', isDefault: false },
] as const;

export const FEATURES = [
  'Fiber Management', 'Power Management', 'Rack Visualization', 'Change Management', 'Work Orders',
  'Capacity Planning', 'Mobile Technician App', 'Floor Plans', 'GIS Outside Plant', 'Circuit Tracing',
  'Asset Discovery', 'Single Sign-On', 'API Access', 'Advanced Reporting', 'Audit Trail',
] as const;

export const REPORTING_CATEGORIES = [
  'Capacity', 'Inventory', 'Circuits', 'Change Log', 'Utilization',
  'Compliance', 'Power', 'Fiber', 'Work Orders', 'Executive Summary',
] as const;

/** A SaaS image as the account generator needs it. */
export interface SeedImage {
  name: string;
  region: string;
  irmnVersion: string;
  osType: 'Windows' | 'Linux';
  official: boolean;
  active: boolean;
  jumpStart: boolean;
}

/** [name, region, IRMN version, OS, official, active, jumpStart, description] */
const IMAGES: readonly [string, string, string, 'Windows' | 'Linux', boolean, boolean, boolean, string][] = [
  ['irmn-7.6.2-win2016-use1', 'us-east-1', '7.6', 'Windows', true, false, false, 'Legacy 7.6 image, kept for restores only'],
  ['irmn-8.0.7-win2019-use1', 'us-east-1', '8.0', 'Windows', true, true, false, 'IRMN 8.0.7 on Windows Server 2019'],
  ['irmn-8.0.7-win2019-euw1', 'eu-west-1', '8.0', 'Windows', true, false, false, 'Superseded by irmn-8.1.3-win2022-euw1'],
  ['irmn-8.1.3-win2022-use1', 'us-east-1', '8.1', 'Windows', true, true, false, 'IRMN 8.1.3 on Windows Server 2022'],
  ['irmn-8.1.3-win2022-usw2', 'us-west-2', '8.1', 'Windows', true, true, false, 'IRMN 8.1.3 on Windows Server 2022'],
  ['irmn-8.1.3-win2022-euw1', 'eu-west-1', '8.1', 'Windows', true, true, false, 'IRMN 8.1.3 on Windows Server 2022'],
  ['irmn-8.1.3-win2022-euc1', 'eu-central-1', '8.1', 'Windows', true, true, false, 'IRMN 8.1.3 on Windows Server 2022'],
  ['irmn-8.1.3-win2022-apse2', 'ap-southeast-2', '8.1', 'Windows', true, true, false, 'IRMN 8.1.3 on Windows Server 2022'],
  ['irmn-8.1.3-ubuntu2204-use1', 'us-east-1', '8.1', 'Linux', true, true, false, 'IRMN 8.1.3 on Ubuntu 22.04 LTS'],
  ['irmn-8.2.0-win2022-use1', 'us-east-1', '8.2', 'Windows', false, true, false, 'Nightly 8.2 preview, not for customers'],
  ['irmn-8.2.0-ubuntu2404-euw1', 'eu-west-1', '8.2', 'Linux', false, true, false, 'Nightly 8.2 preview on Ubuntu 24.04 LTS'],
  ['js-8.1.3-campus-use1', 'us-east-1', '8.1', 'Windows', true, true, true, 'Jump-start: campus network sample data'],
  ['js-8.1.3-datacenter-euw1', 'eu-west-1', '8.1', 'Windows', true, true, true, 'Jump-start: colocation data center sample data'],
  ['js-8.2.0-fiber-preview-use1', 'us-east-1', '8.2', 'Windows', false, true, true, 'Jump-start: outside-plant fiber preview'],
];

/** Cloud images no SaaS image points at: ids outside the seed's random stream, so the rest of the seed is unchanged. */
export const SPARE_CLOUD_IMAGES = [
  { imageId: 'ami-0c7e5a1f3b9d24680', name: 'irmn-8.0.5-win2019-use1', description: 'Retired 8.0.5 build, no longer offered', region: 'us-east-1' },
  { imageId: 'ami-0f2d4b6a8c1e3579b', name: 'caa-agent-2025-09-euw1', description: 'CAA build agent snapshot', region: 'eu-west-1' },
] as const;

export const SEED_IMAGES: readonly SeedImage[] = IMAGES.map(([name, region, irmnVersion, osType, official, active, jumpStart]) => ({
  name,
  region,
  irmnVersion,
  osType,
  official,
  active,
  jumpStart,
}));

/** Inserts IRMN versions, regions, instance types, features, reporting categories and customers; returns the IRMN version ids by name. */
export async function seedReferenceData(db: DbOrTx): Promise<Map<string, number>> {
  const versions = await db.insert(irmnVersions).values([...IRMN_VERSIONS]).returning({ id: irmnVersions.id, name: irmnVersions.name });
  await db.insert(regions).values([...REGIONS]);
  await db.insert(instanceTypes).values([
    ...MACHINE_TYPES.map((t) => ({ ...t, cloudCode: t.name, memorySize: null, isRedis: false })),
    ...REDIS_TYPES.map((t) => ({ ...t, cloudCode: t.name, storageSize: 0, isRedis: true })),
  ]);
  await db.insert(features).values(FEATURES.map((name) => ({ name })));
  await db.insert(reportingCategories).values(REPORTING_CATEGORIES.map((name) => ({ name })));
  await insertMany(db, customers, CUSTOMERS.map((name) => ({ name })));
  return new Map(versions.map((v) => [v.name, v.id]));
}

/**
 * Inserts the SaaS images (jump-start ones carry a `jumpStartConfig` of deployer,
 * SSL, Grafana, per-component versions and library file ids), the MMA classes and
 * one MMA instance for each of classes 1..6, exactly one of them (Internal Testing)
 * on standby.
 */
export async function seedImagesAndClasses(
  db: DbOrTx,
  rng: Rng,
  ctx: { irmnVersionIds: Map<string, number>; software: SoftwareCatalogue },
): Promise<void> {
  const { software } = ctx;
  const images = await db
    .insert(saasImages)
    .values(
      IMAGES.map(([name, region, irmn, osType, official, active, jumpStart, description]) => {
        const branch = irmn === '8.2' ? 'release/8.2' : 'release/8.1';
        return {
          name,
          region,
          description,
          irmnVersionId: ctx.irmnVersionIds.get(irmn) ?? null,
          official,
          active,
          jumpStart,
          osType,
          cloudImage: `ami-${rng.hex(17)}`,
          jumpStartConfig: jumpStart
            ? {
                deployer: software.versionRef('deployer', 'master', 0),
                enableSsl: true,
                showInGrafana: !name.includes('preview'),
                versions: Object.fromEntries(
                  ['launcher', 'siteMaster', 'smchk', 'client', 'reporting', 'pdfExport', 'sqlExport', 'populate', 'auditChangeLog'].map(
                    (key) => [key, software.versionRef(key, branch, 0)],
                  ),
                ),
                libraryFiles: software.libraryFiles
                  .filter((f) => f.type === 'Prod' && f.version === irmn)
                  .slice(0, 3)
                  .map((f) => f.id),
              }
            : null,
        };
      }),
    )
    .returning();
  // The simulated cloud holds each image's AMI, and two that no SaaS image uses (spec 3 §2.4 Cloud Images).
  await db.insert(cloudImages).values([
    ...images.map((i) => ({ imageId: i.cloudImage, name: i.name, description: i.description, region: i.region, status: 'available' })),
    ...SPARE_CLOUD_IMAGES.map((i) => ({ ...i, status: 'available' })),
  ]);

  const classImage: Record<number, string> = { 3: 'js-8.1.3-campus-use1', 4: 'js-8.1.3-datacenter-euw1', 5: 'js-8.1.3-datacenter-euw1' };
  await db.insert(mmaClasses).values(
    ACCOUNT_CLASSES.map((c) => ({
      id: c.id,
      name: c.name,
      image: classImage[c.id] ?? null,
      isProduction: c.id === CLASS_CUSTOMER_PRODUCTION,
    })),
  );

  await db.insert(mmaInstances).values(
    [1, 2, 3, 4, 5, 6].map((classId) => {
      const branch = classId <= 2 ? 'develop' : 'master';
      const deployer = software.commitAt('deployer', branch, classId <= 2 ? 0 : 2);
      return {
        classId,
        commitHash: rng.hex(40),
        commitTimestamp: daysBefore(rng.int(1, 40) + rng.next()),
        deployerVer: deployer.shortHash,
        deployerBranch: branch,
        deployerVerUpdatedAt: daysBefore(rng.int(1, 20) + rng.next()),
        standby: classId === 2,
        priorityGroup: classId === 5 ? 0 : classId >= 3 ? 1 : 2,
        caaHost: classId >= 3 ? `caa-${classId === 6 ? 'onprem' : classId === 5 ? 'prod' : 'int'}-01.${PROVIDER_DOMAIN}` : null,
      };
    }),
  );

  await ensureOperationTypes(db);
}

/**
 * Inserts the operation types (DESIGN §12) every MMA class with machines lacks:
 * run by the seed, and at every start, so that a database seeded before a type
 * existed (a demo or scale data folder from an earlier version) gets it too.
 * Existing rows are left as they are (an operator's timeouts stay).
 */
export async function ensureOperationTypes(db: DbOrTx): Promise<void> {
  const classes = await db.select({ id: mmaClasses.id }).from(mmaClasses);
  const withMachines = classes.map((c) => c.id).filter((id) => id !== CLASS_ADD_ON);
  if (withMachines.length === 0) return;
  await db
    .insert(operationTypes)
    .values(
      withMachines.flatMap((machineClassId) =>
        OPERATION_TYPES.map(([name, description, canBeManual, timeoutSeconds]) => ({
          machineClassId,
          name,
          description,
          // On Premise machines are run by their owners: the agent only backs them up and tests them.
          canBeManual: canBeManual && (machineClassId !== CLASS_ON_PREMISE || name === 'Backup' || name === 'SmokeTest'),
          timeoutSeconds,
        })),
      ),
    )
    .onConflictDoNothing();
}

/**
 * The operation types every class has (DESIGN §12): name, description, whether
 * Queue Operations offers it (the others are queued by their own dialog or by the
 * agent), and its timeout in seconds.
 */
export const OPERATION_TYPES: readonly [TOperationTypeName, string, boolean, number][] = [
  ['UpdateSoftware', 'Deploy the desired software versions and restart the services', true, 1800],
  ['Backup', 'Back up the launcher, site master and audit changelog databases', true, 3600],
  ['RestoreBackup', 'Restore chosen backup files over the current databases', false, 3600],
  ['Populate', 'Populate the launcher or site master with reference data', false, 1800],
  ['PublishSampleData', 'Publish the site master data as a sample data file', false, 1800],
  ['ReinstallSampleData', 'Reset the site master data to the chosen sample data', false, 1800],
  ['CreateJumpStartAmi', 'Create a jump-start machine image from this machine', false, 3600],
  ['TestLatestCode', 'Deploy the newest commits of a branch and run the smoke test', false, 3600],
  ['SmokeTest', 'Run the smoke test suite against the launcher and site master', true, 600],
  ['ApplyConfig', 'Write the component and deployer configuration and restart the services', true, 300],
];
