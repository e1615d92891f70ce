/**
 * Account plans of the seeded fleet (spec 1 §3, §9; DESIGN §6). A plan is the
 * account row to insert (explicit id) plus what its sites and machines need.
 *
 * Names are company-like and unique, with a unique urlFriendlyName derived as the
 * console derives it. Classes follow {@link FleetShape}; add-ons (class 200) get a
 * parent that is neither an add-on nor a template and are named '{parent} add-on'.
 * About 10% of the accounts expired before {@link BASE_DATE}, a few never expire.
 */
import {
  CLASS_ADD_ON,
  CLASS_CUSTOMER_PRODUCTION,
  CLASS_CUSTOMER_STAGING,
  CLASS_EXPERIMENTAL,
  CLASS_INTERNAL_PRODUCTION,
  CLASS_INTERNAL_TESTING,
  CLASS_ON_PREMISE,
} from '@fleet/contracts';
import type { accounts, accountSettings } from '../db/schema.js';
import { FEATURES, REDIS_TYPES, REGIONS, REPORTING_CATEGORIES, SEED_IMAGES, type SeedImage } from './catalogue.js';
import { CUSTOMERS, DEVOPS_EMAIL, FIRST_NAMES, INTERNAL_NAMES, LAST_NAMES, PLACES, SOFTWARE_KEYS, STAFF, CORE_SOFTWARE, type SoftwareKey } from './names.js';
import { BASE_DATE, daysAfter, daysBefore, urlFriendly, type Rng } from './random.js';
import { backupConfig, BUNDLES, idleSchedule, licenseConfig, machineConfig, type IrmnLine } from './settings.js';
import type { SoftwareCatalogue } from './software.js';

/** How many accounts of each kind a fleet has. */
export interface FleetShape {
  /** Accounts per class id, add-ons (200) included. */
  classCounts: Record<number, number>;
  /** Accounts of classes 1..4 marked isTemplate (no machines). */
  templates: number;
  /** Share of the machine-bearing accounts with instance policy AllInOne (0..1). */
  allInOneShare: number;
  /** Site count range of InstancePerSiteMaster accounts. */
  sites: [min: number, max: number];
}

/** An account row with its settings sections, split into `accounts` and `account_settings` when inserted. */
export type AccountRow = typeof accounts.$inferInsert &
  Omit<typeof accountSettings.$inferInsert, 'accountId'> & { id: number; name: string; urlFriendlyName: string; classId: number };

export interface AccountPlan {
  row: AccountRow;
  policy: 'AllInOne' | 'InstancePerSiteMaster';
  /** Sites to create (0 for add-ons). */
  siteCount: number;
  /** False for add-ons and templates. */
  hasMachines: boolean;
  region: string;
  image: SeedImage;
  line: IrmnLine;
  instanceTypeId: number;
  enableSsl: boolean;
  /** Components the machines run. */
  components: SoftwareKey[];
  sampleData: { mode: 'None' | 'Default' | 'Select'; file: string | null };
  createdAt: Date;
}

const CUSTOMER_CLASSES = new Set<number>([CLASS_CUSTOMER_STAGING, CLASS_CUSTOMER_PRODUCTION, CLASS_ON_PREMISE]);
const INTEGRATIONS = SOFTWARE_KEYS.filter((k) => !CORE_SOFTWARE.includes(k));

/** Image weights; customer classes only get official, active 8.0/8.1 images. */
function imageWeight(image: SeedImage, classId: number): number {
  if (image.irmnVersion === '7.6') return 0;
  const customer = CUSTOMER_CLASSES.has(classId);
  if (customer && (!image.official || image.irmnVersion === '8.2')) return 0;
  if (customer && image.jumpStart) return 0;
  if (!image.active) return 2;
  if (image.jumpStart) return classId === CLASS_INTERNAL_PRODUCTION ? 12 : 2;
  if (image.irmnVersion === '8.2') return classId <= CLASS_INTERNAL_TESTING ? 10 : 0;
  const base = image.irmnVersion === '8.0' ? 6 : 12;
  return image.region === 'us-east-1' ? base * 2 : base;
}

/**
 * Plans the accounts of a fleet: ids from `firstId` on, ordered by creation time.
 * Deterministic for a given `rng` seed and shape.
 */
export function planAccounts(
  rng: Rng,
  ctx: { shape: FleetShape; software: SoftwareCatalogue; licenseTemplates: string[]; firstId: number },
): AccountPlan[] {
  const { shape, software } = ctx;
  const names = new UniqueAccountNames();
  const plans: PlanBase[] = [];
  const rows: Omit<AccountRow, 'id'>[] = [];
  let templatesLeft = shape.templates;

  for (const [classKey, count] of Object.entries(shape.classCounts)) {
    const classId = Number(classKey);
    if (classId === CLASS_ADD_ON) continue;
    for (let i = 0; i < count; i++) {
      const isTemplate = templatesLeft > 0 && classId <= CLASS_CUSTOMER_STAGING && i === 0;
      if (isTemplate) templatesLeft--;
      const customer = CUSTOMER_CLASSES.has(classId) && !isTemplate ? CUSTOMERS[(i + classId * 7) % CUSTOMERS.length] ?? '' : '';
      const templateName = TEMPLATE_NAMES[(shape.templates - templatesLeft - 1) % TEMPLATE_NAMES.length] ?? 'Template';
      const name = names.claim(isTemplate ? templateName : accountName(rng, classId, customer, i));
      const plan = planOne(rng, { classId, customer, isTemplate, shape, software, licenseTemplates: ctx.licenseTemplates });
      plans.push(plan);
      rows.push({ ...plan.rowBase, name, urlFriendlyName: urlFriendly(name), description: description(rng, classId, customer, plan) });
    }
  }

  // Add-ons: a parent that is not a template; customer classes first.
  const parents = rng.sample(
    rows.map((r, i) => ({ r, i })).filter(({ r }) => !r.isTemplate),
    rows.length,
  ).sort((a, b) => parentRank(a.r.classId) - parentRank(b.r.classId));
  const addOnParents = parents.slice(0, shape.classCounts[CLASS_ADD_ON] ?? 0);

  // Ids follow creation time; add-ons are created after their parents.
  const order = rows.map((_, i) => i).sort((a, b) => (plans[a]?.createdAt.getTime() ?? 0) - (plans[b]?.createdAt.getTime() ?? 0) || a - b);
  const result: AccountPlan[] = [];
  const planOfRow = new Map<number, AccountPlan>();
  for (const index of order) {
    const row = rows[index];
    const plan = plans[index];
    if (!row || !plan) continue;
    const { rowBase: _rowBase, ...rest } = plan;
    const planned = { ...rest, row: { ...row, id: ctx.firstId + result.length } };
    planOfRow.set(index, planned);
    result.push(planned);
  }
  for (const { r: parent, i } of addOnParents) {
    const parentPlan = planOfRow.get(i);
    if (!parentPlan) continue;
    const name = names.claim(`${parent.name} add-on`);
    const createdAt = new Date(Math.min(daysAfter(rng.int(3, 200) + rng.next(), parentPlan.createdAt).getTime(), daysBefore(1).getTime()));
    const expirationTime = parent.expirationTime ?? null;
    result.push({
      ...parentPlan,
      siteCount: 0,
      hasMachines: false,
      createdAt,
      row: {
        id: ctx.firstId + result.length,
        name,
        urlFriendlyName: urlFriendly(name),
        description: `Extra licensed modules for ${parent.name}`,
        customer: parent.customer ?? '',
        creator: rng.pick(STAFF).name,
        creationTime: createdAt,
        expirationTime,
        classId: CLASS_ADD_ON,
        parentId: parentPlan.row.id,
        managed: false,
        autoTest: false,
        autoTestBranch: null,
        whiteGlove: false,
        maintainer: parent.maintainer ?? DEVOPS_EMAIL,
        contactName: parent.contactName ?? '',
        contactEmail: parent.contactEmail ?? '',
        contactPhone1: parent.contactPhone1 ?? null,
        contactPhone2: null,
        billingPeriod: 'Monthly',
        billingAmount: rng.int(5, 50) * 10,
        instancePolicy: parentPlan.policy,
        bundleVersion: null,
        vmImageName: null,
        isTemplate: false,
        machineConfig: {},
        backupConfig: {},
        idleSchedules: [],
        licenseConfig: licenseConfig(rng, {
          instancePolicy: parentPlan.policy,
          cloudInstanceType: parentPlan.instanceTypeId,
          sites: 1,
          expirationTime,
          features: rng.sample(FEATURES, rng.int(1, 3)),
          reportingCategories: rng.sample(REPORTING_CATEGORIES, rng.int(0, 2)),
          matchedTemplate: null,
          addOn: { siteName: rng.pick(['Expansion Site', 'Annex', 'North Wing']), areaCategoryName: rng.pick(['Expansion', 'Add-on Areas']) },
          large: false,
        }),
      },
    });
  }
  return result;
}

const TEMPLATE_NAMES = ['Template Standard AllInOne', 'Template Multi-Site', 'Template EU Region', 'Template Linux Launcher'];

/** Add-on parents: Customer Production first, then Customer Staging, On Premise, internal classes. */
function parentRank(classId: number): number {
  return [CLASS_CUSTOMER_PRODUCTION, CLASS_CUSTOMER_STAGING, CLASS_ON_PREMISE].indexOf(classId) >>> 0;
}

/** Claims unique display names whose URL names are unique too. */
class UniqueAccountNames {
  private readonly urls = new Set<string>();

  claim(wanted: string): string {
    for (let n = 1; ; n++) {
      const name = n === 1 ? wanted : `${wanted} ${n}`;
      const url = urlFriendly(name);
      if (!this.urls.has(url)) {
        this.urls.add(url);
        return name;
      }
    }
  }
}

function accountName(rng: Rng, classId: number, customer: string, index: number): string {
  const place = rng.pick(PLACES);
  switch (classId) {
    case CLASS_CUSTOMER_PRODUCTION:
      return index < CUSTOMERS.length ? customer : `${customer} ${place}`;
    case CLASS_CUSTOMER_STAGING:
      return `${customer} ${rng.pick(['Staging', 'UAT', 'Pilot', `${place} Staging`])}`;
    case CLASS_ON_PREMISE:
      return `${customer} ${rng.chance(0.6) ? 'On-Prem' : `${place} On-Prem`}`;
    case CLASS_EXPERIMENTAL:
      return `${rng.pick(INTERNAL_NAMES[1])}${rng.chance(0.4) ? ` ${rng.pick(FIRST_NAMES)}` : ''}`;
    case CLASS_INTERNAL_TESTING: {
      const base = rng.pick(INTERNAL_NAMES[2]);
      return `${base}${!/\d/.test(base) && rng.chance(0.5) ? ` ${rng.pick(['8.0', '8.1', '8.2'])}` : ''}`;
    }
    default:
      return `${rng.pick(INTERNAL_NAMES[3])}${rng.chance(0.6) ? ` ${rng.pick(['EMEA', 'APAC', 'Americas', place])}` : ''}`;
  }
}

function description(rng: Rng, classId: number, customer: string, plan: { siteCount: number; region: string }): string {
  const region = REGIONS.find((r) => r.cloudCode === plan.region)?.name ?? plan.region;
  const sites = `${plan.siteCount} site${plan.siteCount === 1 ? '' : 's'}`;
  switch (classId) {
    case CLASS_CUSTOMER_PRODUCTION:
      return `Production tenant of ${customer}, ${sites} in ${region}`;
    case CLASS_CUSTOMER_STAGING:
      return rng.pick([`Staging copy for ${customer} upgrade rehearsals`, `UAT environment of ${customer}`, `Pilot for ${customer}, ${sites}`]);
    case CLASS_ON_PREMISE:
      return `On-premise installation of ${customer} (${sites}), managed remotely`;
    case CLASS_EXPERIMENTAL:
      return rng.pick(['Short-lived experiment, may be deleted any time', 'Prototype for the next release', 'Spike, see engineering wiki']);
    case CLASS_INTERNAL_TESTING:
      return rng.pick(['Nightly regression target', 'QA environment for release testing', 'Integration test target', '']);
    default:
      return rng.pick(['Shared demo environment, reset weekly', 'Used by the training team', 'Long-running internal tenant']);
  }
}

type PlanBase = Omit<AccountPlan, 'row'> & { rowBase: Omit<AccountRow, 'id' | 'name' | 'urlFriendlyName'> };

function planOne(
  rng: Rng,
  ctx: { classId: number; customer: string; isTemplate: boolean; shape: FleetShape; software: SoftwareCatalogue; licenseTemplates: string[] },
): PlanBase {
  const { classId, customer, shape } = ctx;
  const production = classId === CLASS_CUSTOMER_PRODUCTION;
  const image = rng.weighted(SEED_IMAGES.map((i) => [i, imageWeight(i, classId)] as const).filter(([, w]) => w > 0));
  const line = (image.irmnVersion === '8.2' ? '8.2' : image.irmnVersion === '8.0' ? '8.0' : '8.1') satisfies IrmnLine;
  const allInOneShare = production ? shape.allInOneShare / 2 : shape.allInOneShare;
  const policy = rng.chance(allInOneShare) ? 'AllInOne' : 'InstancePerSiteMaster';
  const siteCount = policy === 'AllInOne' ? 1 : rng.int(shape.sites[0], shape.sites[1]);
  const createdAt = daysBefore(rng.int(3, 730) + rng.next());
  const roll = rng.next();
  // Expired ones ran out between 30 days after creation and the base date.
  const lived = (BASE_DATE.getTime() - createdAt.getTime()) / 86_400_000;
  const expirationTime = ctx.isTemplate || (classId === CLASS_ON_PREMISE && roll < 0.5) || roll < 0.03
    ? null
    : roll < 0.18 && lived > 31
      ? daysAfter(30 + (lived - 31) * rng.next(), createdAt)
      : daysAfter(rng.int(60, 540) + rng.next());
  const instanceTypeId = production
    ? rng.pick([5, 6, 8])
    : classId === CLASS_CUSTOMER_STAGING || classId === CLASS_ON_PREMISE
      ? rng.pick([3, 4, 4, 7])
      : rng.pick([1, 2, 2, 3, 3, 4, 9]);
  const integrations = rng.sample(INTEGRATIONS, CUSTOMER_CLASSES.has(classId) ? rng.int(0, 3) : rng.int(0, 2));
  const prodFiles = ctx.software.libraryFiles.filter((f) => f.version === line && f.type === (line === '8.2' ? 'Dev' : 'Prod'));
  const customFiles = ctx.software.libraryFiles.filter((f) => f.type === 'Custom');
  const machine = machineConfig(rng, ctx.software, {
    region: image.region,
    vmImageName: image.name,
    line,
    osType: image.osType,
    integrations,
    mainLibraryFiles: rng.chance(0.25) ? rng.sample(prodFiles, rng.int(1, 3)).map((f) => f.id) : [],
    accountLibraryFiles: CUSTOMER_CLASSES.has(classId) && rng.chance(0.2) ? rng.sample(customFiles, 1).map((f) => f.id) : [],
    production,
    createdAt,
  });
  const person = contactPerson(rng, customer);
  const large = production && rng.chance(0.4);
  const autoTest = classId === CLASS_INTERNAL_TESTING && rng.chance(0.3);
  const sampleData = machine.includeSampleData === true
    ? { mode: rng.pick(['Default', 'Select'] as const), file: typeof machine.sampleDataFile === 'string' ? machine.sampleDataFile : null }
    : { mode: 'None' as const, file: null };
  return {
    policy,
    siteCount,
    hasMachines: !ctx.isTemplate,
    region: image.region,
    image,
    line,
    instanceTypeId,
    enableSsl: machine.enableSsl === true,
    components: [...CORE_SOFTWARE, ...integrations],
    sampleData: { mode: sampleData.mode, file: sampleData.mode === 'Select' ? sampleData.file : null },
    createdAt,
    rowBase: {
      parentId: null,
      customer,
      creator: rng.weighted(STAFF.map((s, i) => [s.name, i < 2 ? 4 : 1] as const)),
      creationTime: createdAt,
      expirationTime,
      classId,
      managed: rng.chance(0.95),
      autoTest,
      autoTestBranch: autoTest ? rng.pick(['develop', 'master', 'release/8.2']) : null,
      whiteGlove: production && rng.chance(0.3),
      maintainer: rng.weighted([
        [DEVOPS_EMAIL, 7],
        [person.email, 2],
        [`noc@${person.domain}`, 1],
      ]),
      contactName: person.name,
      contactEmail: person.email,
      contactPhone1: rng.chance(0.7) ? `+1 555 01${rng.int(10, 99)}` : null,
      contactPhone2: rng.chance(0.2) ? `+44 20 7946 0${rng.int(100, 999)}` : null,
      billingPeriod: production || classId === CLASS_ON_PREMISE ? rng.pick(['Yearly', 'Yearly', 'Monthly']) : CUSTOMER_CLASSES.has(classId) ? 'Monthly' : 'Biweekly',
      billingAmount: production ? rng.int(12, 300) * 100 : CUSTOMER_CLASSES.has(classId) ? rng.int(15, 60) * 10 : 10,
      instancePolicy: policy,
      bundleVersion: BUNDLES[line],
      vmImageName: image.name,
      isTemplate: ctx.isTemplate,
      licenseConfig: licenseConfig(rng, {
        instancePolicy: policy,
        cloudInstanceType: instanceTypeId,
        ...(production && rng.chance(0.4) ? { redisCloudInstanceType: rng.pick(REDIS_TYPES).id } : {}),
        sites: siteCount,
        expirationTime,
        features: rng.sample(FEATURES, production ? rng.int(4, 10) : rng.int(1, 5)),
        reportingCategories: rng.sample(REPORTING_CATEGORIES, production ? rng.int(3, 8) : rng.int(0, 4)),
        matchedTemplate: rng.chance(0.3) ? rng.pick(ctx.licenseTemplates) : null,
        large,
      }),
      machineConfig: machine,
      backupConfig: backupConfig(rng, production),
      idleSchedules: !production && rng.chance(0.2) ? idleSchedule(rng, BASE_DATE) : [],
    },
  };
}

/** The account's contact: a customer employee, or a staff member for internal accounts. */
function contactPerson(rng: Rng, customer: string): { name: string; email: string; domain: string } {
  if (!customer) {
    const staff = rng.pick(STAFF);
    return { name: staff.name, email: `${staff.username}@fleet.example`, domain: 'fleet.example' };
  }
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const domain = `${urlFriendly(customer)}.example.com`;
  return { name: `${first} ${last}`, email: `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `@${domain}`, domain };
}

