/**
 * Plain constants (no zod) that the console's first screen needs: permissions and
 * groups (spec 1 §6, DESIGN §5) and the MMA classes (spec 1 §9, DESIGN §6). The
 * console imports them from `@fleet/contracts/constants`, so its entry chunk does
 * not load zod and the schemas; everything else imports them from the package root.
 */

/** The one permission the specification names; it gates every mutation. */
export const PERMISSION_WRITE = 'write';
/** Permission of administrators: they may delete what others saved (the updater's saved selections). */
export const PERMISSION_ADMIN = 'admin';
/** Group that may see and act on accounts and machines of class Customer Production. */
export const GROUP_CUSTOMER_PRODUCTION_ACCESS = 'CustomerProductionAccess';
/** Failed sign-ins per username and address within a minute before 429. */
export const LOGIN_MAX_FAILURES = 5;
/** Window and lock-out of the sign-in throttle, in seconds. */
export const LOGIN_THROTTLE_WINDOW_SECONDS = 60;

export const CLASS_EXPERIMENTAL = 1;
export const CLASS_INTERNAL_TESTING = 2;
export const CLASS_INTERNAL_PRODUCTION = 3;
export const CLASS_CUSTOMER_STAGING = 4;
export const CLASS_CUSTOMER_PRODUCTION = 5;
export const CLASS_ON_PREMISE = 6;
/** The add-on class: a parent account, no machines, sites or instance sections. */
export const CLASS_ADD_ON = 200;

/** Every class id with its name, in display order. */
export const ACCOUNT_CLASSES = [
  { id: CLASS_EXPERIMENTAL, name: 'Experimental' },
  { id: CLASS_INTERNAL_TESTING, name: 'Internal Testing' },
  { id: CLASS_INTERNAL_PRODUCTION, name: 'Internal Production' },
  { id: CLASS_CUSTOMER_STAGING, name: 'Customer Staging' },
  { id: CLASS_CUSTOMER_PRODUCTION, name: 'Customer Production' },
  { id: CLASS_ON_PREMISE, name: 'On Premise' },
  { id: CLASS_ADD_ON, name: 'Add-on Account' },
] as const;

export const CLASS_IDS = ACCOUNT_CLASSES.map((c) => c.id);
/** Default class filter of the accounts list: all but On Premise and Add-on Account. */
export const DEFAULT_LIST_CLASS_IDS = CLASS_IDS.filter(
  (id) => id !== CLASS_ON_PREMISE && id !== CLASS_ADD_ON,
);

/** Classes counted in the top bar (spec 3 §2.9). */
export const TOP_BAR_CLASS_IDS = [1, 2, 3, 4, 5, 6];
/** Classes counted per class in the accounts list footer (spec 1 §2). */
export const FOOTER_CLASS_IDS = [1, 2, 3, 4];

export function className(id: number): string {
  return ACCOUNT_CLASSES.find((c) => c.id === id)?.name ?? `Class ${id}`;
}
