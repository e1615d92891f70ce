/**
 * Rules of the Account Properties card that need no React (spec 1 §2 Account
 * Properties card, §3 Account, §4, §5, §6, §9):
 *
 * - `propertiesSection(account)`: the properties section of `GET /accounts/{id}`
 *   in the form's shape (`TPushAccountPropertiesRequest` without `version`);
 * - `classOptions`: the MMA classes a user may choose;
 * - `ADD_ON_FORCED`: what choosing the add-on class forces;
 * - `maintainerMode`: which of DevOps / Contact / Custom a maintainer address is.
 */
import {
  ACCOUNT_CLASSES,
  accountPropertiesOf,
  CLASS_ADD_ON,
  CLASS_CUSTOMER_PRODUCTION,
  DEVOPS_EMAIL,
  type TAccountDetail,
  type TPushAccountPropertiesRequest,
} from '@fleet/contracts';

/** The values of the properties form (`section-forms.ts`). */
export type PropertiesValues = Omit<TPushAccountPropertiesRequest, 'version'>;

/** The properties section of an account, as the form holds it (copies of its contact and billing). */
export const propertiesSection: (a: TAccountDetail) => PropertiesValues = accountPropertiesOf;

/**
 * MMA classes to offer (spec 1 §5, §6): Customer Production only to group
 * CustomerProductionAccess (or when it is already the class); for an existing
 * account (`mode` 'edit') only classes on the same side of the add-on class,
 * since the server refuses to move an account into or out of it.
 */
export function classOptions(opts: { mode: 'create' | 'edit'; currentClassId: number | undefined; hasCustomerProductionAccess: boolean }) {
  const { mode, currentClassId, hasCustomerProductionAccess } = opts;
  return ACCOUNT_CLASSES.filter((c) => c.id !== CLASS_CUSTOMER_PRODUCTION || hasCustomerProductionAccess || currentClassId === c.id)
    .filter((c) => mode === 'create' || currentClassId === undefined || (currentClassId === CLASS_ADD_ON) === (c.id === CLASS_ADD_ON))
    .map((c) => ({ value: c.id, label: c.name }));
}

/** Choosing the add-on class forces managed, auto test and white glove off and clears the branch (spec 1 §4). */
export const ADD_ON_FORCED = { managed: false, autoTest: false, whiteGlove: false, autoTestBranch: null } as const satisfies Partial<PropertiesValues>;

/** The name an add-on takes when its parent is picked (spec 1 §4). */
export const addOnName = (parentName: string) => `${parentName} add-on`;

export const MAINTAINER_MODES = ['DevOps', 'Contact', 'Custom'] as const;
export type MaintainerMode = (typeof MAINTAINER_MODES)[number];

/**
 * Which maintainer an address is (spec 1 §2 "maintainer (DevOps, Contact or
 * Custom)", §9 default the DevOps group address): blank or the DevOps address is
 * DevOps (the server stores blank as DevOps), the contact's email is Contact,
 * anything else Custom.
 */
export function maintainerMode(maintainer: string | null | undefined, contactEmail: string | null | undefined): MaintainerMode {
  if (!maintainer || maintainer === DEVOPS_EMAIL) return 'DevOps';
  if (contactEmail && maintainer.toLowerCase() === contactEmail.toLowerCase()) return 'Contact';
  return 'Custom';
}
