/**
 * The signed-in user as the server sees it on each request: permissions and groups
 * are read from the database at every request, not trusted from the token, so a
 * revoked permission, a disabled user or a logout takes effect at once.
 */
import { CLASS_CUSTOMER_PRODUCTION, GROUP_CUSTOMER_PRODUCTION_ACCESS, PERMISSION_WRITE } from '@fleet/contracts';

export interface Principal {
  userId: number;
  username: string;
  name: string;
  email: string;
  permissions: string[];
  groups: string[];
  jti: string;
}

export const canWrite = (p: Principal) => p.permissions.includes(PERMISSION_WRITE);
export const hasCustomerProductionAccess = (p: Principal) => p.groups.includes(GROUP_CUSTOMER_PRODUCTION_ACCESS);

/** Class ids hidden from the user: Customer Production without the group (DESIGN §5). */
export function hiddenClassIds(p: Principal): number[] {
  return hasCustomerProductionAccess(p) ? [] : [CLASS_CUSTOMER_PRODUCTION];
}
