/**
 * Query keys of the edit-account screen (spec 1 §2 Edit account, §7 Accounts).
 * They start with the accounts prefix, so invalidating every account query
 * (`accountKeys.all`) reaches them too.
 */
import { accountKeys } from '../../accounts/api/keys';

export const accountEditKeys = {
  details: () => [...accountKeys.all, 'detail'] as const,
  detail: (accountId: number) => [...accountEditKeys.details(), accountId] as const,
  sites: (accountId: number) => [...accountKeys.all, 'sites', accountId] as const,
  softwareStatus: (accountId: number) => [...accountKeys.all, 'software-status', accountId] as const,
};
