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

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * True when calling a route with `method` needs permission `write` (DESIGN §5):
 * every mutation unless its config says `selfService` (own session or password),
 * and a read whose config says `requireWrite` (it reveals secrets). The `/api/v1`
 * onRequest hook enforces it; the OpenAPI description derives its 403s from it.
 */
export function routeNeedsWrite(method: string, config: { selfService?: boolean; requireWrite?: boolean }): boolean {
  return Boolean(config.requireWrite) || (MUTATING.has(method) && !config.selfService);
}
