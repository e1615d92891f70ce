/** Query keys of the accounts area (spec 1 §7 Accounts). */
import type { AccountFilter, AccountListQuery } from './params';

export const accountKeys = {
  all: ['accounts'] as const,
  lists: () => [...accountKeys.all, 'list'] as const,
  list: (query: AccountListQuery) => [...accountKeys.lists(), query] as const,
  infos: () => [...accountKeys.all, 'info'] as const,
  info: (filter: AccountFilter) => [...accountKeys.infos(), filter] as const,
  launcherLogins: (accountId: number) => [...accountKeys.all, 'launcher-logins', accountId] as const,
  lookup: () => [...accountKeys.all, 'lookup'] as const,
};
