/**
 * Word lists of the seeded fleet: customers, people, staff, places and the
 * software components. Fictional names only (the example companies of the
 * Microsoft and .NET sample data and made-up ones); every domain is under
 * `example.com`/`fleet.example`.
 */
import { STATES_VIEWER_COMPONENTS } from '@fleet/contracts';

/** Customer companies (GET /customers, account customer field). */
export const CUSTOMERS = [
  'Northwind Fiber',
  'Contoso Telecom',
  'Fabrikam Networks',
  'Woodgrove Bank',
  'Litware Health',
  'Tailspin Airlines',
  'Wide World Importers',
  'Proseware Data Centers',
  'Adatum Energy',
  'Alpine Ski House',
  'Blue Yonder Airlines',
  'Coho Winery',
  'Fourth Coffee',
  'Graphic Design Institute',
  'Humongous Insurance',
  'Lamna Healthcare',
  'Lucerne Publishing',
  'Margie Travel',
  'Munson Pickles',
  'Nod Publishers',
  'Relecloud',
  'School of Fine Art',
  'Southridge Video',
  'Trey Research',
  'VanArsdel Foods',
  'Wingtip Toys',
  'First Up Consultants',
  'Boreal Power Grid',
  'Cascadia Utilities',
  'Harborview Hospital',
  'Keystone Rail',
  'Meridian Campus Services',
  'Pinnacle Colocation',
  'Redwood County Schools',
  'Silverline Broadband',
  'Summit Logistics',
  'Tidewater Port Authority',
  'Union Metro Transit',
  'Vertex Semiconductors',
  'Zephyr Wireless',
] as const;

/** Operators who create accounts; the first two are the demo users' display names. */
export const STAFF = [
  { name: 'Ada Admin', username: 'admin' },
  { name: 'Oscar Operator', username: 'operator' },
  { name: 'Priya Natarajan', username: 'pnatarajan' },
  { name: 'Tom Becker', username: 'tbecker' },
  { name: 'Lena Hoffmann', username: 'lhoffmann' },
  { name: 'Marco Rossi', username: 'mrossi' },
  { name: 'Sofia Lindqvist', username: 'slindqvist' },
  { name: 'James Okafor', username: 'jokafor' },
] as const;

/** Developers who author commits. */
export const DEVELOPERS = [
  'Aisha Rahman',
  'Bjorn Eriksen',
  'Chen Wei',
  'Daniela Costa',
  'Erik Johansson',
  'Fatima Zahra',
  'Gabriel Moreau',
  'Hana Kobayashi',
  'Ivan Petrov',
  'Julia Schmidt',
  'Kwame Mensah',
  'Laura Martinez',
] as const;

export const FIRST_NAMES = [
  'Alex', 'Bianca', 'Carlos', 'Diana', 'Ethan', 'Fiona', 'George', 'Hannah', 'Isaac', 'Jasmine',
  'Kevin', 'Lucia', 'Mason', 'Nadia', 'Owen', 'Paula', 'Quentin', 'Rosa', 'Samuel', 'Tara',
  'Umar', 'Valerie', 'William', 'Ximena', 'Yusuf', 'Zoe', 'Anil', 'Brigitte', 'Connor', 'Dalia',
] as const;

export const LAST_NAMES = [
  'Anderson', 'Brennan', 'Castillo', 'Dubois', 'Edwards', 'Fischer', 'Garcia', 'Hughes', 'Ibrahim', 'Jensen',
  'Kowalski', 'Lopez', 'Murphy', 'Nakamura', "O'Neill", 'Patel', 'Quinn', 'Romero', 'Sullivan', 'Thompson',
  'Usman', 'Vasquez', 'Walsh', 'Xu', 'Young', 'Zimmermann', 'Baker', 'Clarke', 'Duarte', 'Evans',
] as const;

/** Places used to tell apart several accounts of one customer. */
export const PLACES = [
  'Boston', 'Denver', 'Austin', 'Seattle', 'Toronto', 'Dublin', 'London', 'Frankfurt', 'Munich', 'Madrid',
  'Milan', 'Stockholm', 'Warsaw', 'Sydney', 'Melbourne', 'Auckland', 'Singapore', 'Chicago', 'Atlanta', 'Phoenix',
  'Dallas', 'Oslo', 'Lyon', 'Porto', 'Vienna', 'Zurich', 'Prague', 'Tallinn', 'Calgary', 'Perth',
] as const;

/** Internal (non-customer) account names per class: Experimental, Internal Testing, Internal Production. */
export const INTERNAL_NAMES: Record<1 | 2 | 3, readonly string[]> = {
  1: [
    'Fiber Trace Prototype', 'Redis Cache Trial', 'Linux Launcher Spike', 'SSO Federation Lab', 'GIS Layer Sandbox',
    'Power Chain Experiment', 'Mobile Sync Spike', 'CAD Import Sandbox', 'Rack Elevation Prototype', 'Graph Search Trial',
    'Tenant Isolation Lab', 'Arm Instance Trial', 'Cold Storage Experiment', 'Smart PDU Sandbox', 'Web Client Next',
  ],
  2: [
    'QA Regression', 'Performance Large Site', 'Integration ServiceNow', 'Integration Linkware', 'Upgrade Path 8.0 to 8.1',
    'Backup Restore Drill', 'Smoke Test Nightly', 'Localization QA', 'Security Scan Target', 'Load Test Launcher',
    'Integration CommScope', 'Integration AP Sensing', 'Release Candidate QA', 'Multi Site Failover', 'Accessibility QA',
  ],
  3: [
    'Sales Demo', 'Training Academy', 'Partner Portal Demo', 'Support Repro', 'Marketing Showcase', 'Solutions Lab',
    'Customer Success Sandbox', 'Documentation Screenshots', 'Trade Show Demo', 'Pre-Sales POC',
  ],
};

/**
 * Software keys of the machine version config (spec 3 §3), in the order of the
 * states viewer. Each has a version per machine, commits and builds.
 */
// The components of the contracts, in the order the seed generates them (the order keeps the demo data stable).
export const SOFTWARE_KEYS = STATES_VIEWER_COMPONENTS;
export type SoftwareKey = (typeof SOFTWARE_KEYS)[number];

/** Components every machine runs (the others are integrations, used by some accounts only). */
export const CORE_SOFTWARE: readonly SoftwareKey[] = [
  'deployer', 'siteMaster', 'launcher', 'client', 'pdfExport', 'reporting', 'populate', 'sqlExport', 'smchk', 'auditChangeLog',
];

/** The provider's domain and the DevOps address are the contracts' (spec 1 §9). */
export { DEVOPS_EMAIL, PROVIDER_DOMAIN } from '@fleet/contracts';
