/**
 * Accounts list, footer statistics, launcher logins and account lookup
 * (spec 1 §2 Accounts list, §7 Accounts, §9; DESIGN §5, §6).
 */
import { z } from 'zod';
import { MAX_SEARCH_LENGTH, PAGE_QUERY_FIELDS, ZQueryFlag, ZSortDirection, zCommaList, zPaged } from './common.js';
import { ZClassId, ZClassRef } from './classes.js';

/** Machine status filter values and alert icons (DESIGN §6), in icon order. */
export const MACHINE_STATUSES = [
  'needsAdmin',
  'unmanaged',
  'manualMaintenance',
  'stopped',
  'turbo',
  'obsolete',
  'idle',
] as const;
export const ZMachineStatus = z.enum(MACHINE_STATUSES);
export type TMachineStatus = z.infer<typeof ZMachineStatus>;

export const MACHINE_STATUS_LABELS: Record<TMachineStatus, string> = {
  needsAdmin: 'Needs admin (panic)',
  unmanaged: 'Unmanaged',
  manualMaintenance: 'Manual maintenance',
  stopped: 'Stopped',
  turbo: 'Turbo',
  obsolete: 'Obsolete',
  idle: 'Idle',
};

export const INSTANCE_POLICIES = ['AllInOne', 'InstancePerSiteMaster'] as const;
export const ZInstancePolicy = z.enum(INSTANCE_POLICIES);
export type TInstancePolicy = z.infer<typeof ZInstancePolicy>;

export const BILLING_PERIODS = ['Biweekly', 'Monthly', 'Yearly'] as const;
export const ZBillingPeriod = z.enum(BILLING_PERIODS);

/** Sortable columns of the accounts list (spec 1 §2). */
export const ACCOUNT_SORT_FIELDS = [
  'name',
  'description',
  'creationTime',
  'expirationTime',
  'creator',
  'class',
] as const;
export const ZAccountSortField = z.enum(ACCOUNT_SORT_FIELDS);
export type TAccountSortField = z.infer<typeof ZAccountSortField>;

/** Filters shared by `GET /accounts` and `GET /accounts/info`. */
export const ZAccountFilter = z.object({
  search: z.string().max(MAX_SEARCH_LENGTH).optional(),
  classIds: zCommaList(ZClassId).optional(),
  saasImage: z.string().max(200).optional(),
  machineStatusInclude: zCommaList(ZMachineStatus).optional(),
  machineStatusExclude: zCommaList(ZMachineStatus).optional(),
});

/**
 * `GET /accounts` query. Without `sortBy` a search is ordered by relevance
 * (name and urlFriendlyName weigh twice customer and creator), otherwise by name.
 */
export const ZListAccountsQuery = ZAccountFilter.extend(PAGE_QUERY_FIELDS).extend({
  sortBy: ZAccountSortField.optional(),
  sortDirection: ZSortDirection.default('Ascending'),
});
export type TListAccountsQuery = z.input<typeof ZListAccountsQuery>;

/** Counts of an account's machines per status (drives the alert icons). */
export const ZMachineStatusCounts = z.object({
  machines: z.number().int(),
  needsAdmin: z.number().int(),
  unmanaged: z.number().int(),
  manualMaintenance: z.number().int(),
  stopped: z.number().int(),
  turbo: z.number().int(),
  obsolete: z.number().int(),
  idle: z.number().int(),
});
export type TMachineStatusCounts = z.infer<typeof ZMachineStatusCounts>;

/**
 * An account's names, description, customer, who created it and when, and when
 * it expires (ISO 8601 UTC): the same fields in a row of the accounts list and
 * in `GET /accounts/{id}` (spec 1 §2, §3).
 */
export const ACCOUNT_IDENTITY_FIELDS = {
  name: z.string(),
  urlFriendlyName: z.string(),
  description: z.string(),
  customer: z.string(),
  creator: z.string(),
  creationTime: z.string(),
  expirationTime: z.string().nullable(),
};

/** A row of the accounts list that the user may open: every column (spec 1 §2 Accounts list). */
export const ZAccountListItem = z.object({
  /** False: the user may open the account (see {@link ZRestrictedAccountListItem}). */
  restricted: z.literal(false),
  id: z.number().int(),
  ...ACCOUNT_IDENTITY_FIELDS,
  bundleVersion: z.string().nullable(),
  instancePolicy: ZInstancePolicy,
  classId: z.number().int(),
  class: ZClassRef,
  parentId: z.number().int().nullable(),
  vmImageName: z.string().nullable(),
  billingPeriod: ZBillingPeriod,
  isTemplate: z.boolean(),
  machineStats: ZMachineStatusCounts,
});
export type TAccountListItem = z.infer<typeof ZAccountListItem>;

/**
 * A row of the accounts list that the user may not open: an account of class
 * Customer Production for a user outside group CustomerProductionAccess (spec 1
 * §2: "show the name as plain text with no actions"; §6). It carries the name and
 * the class, and the id as the row's key, nothing else: no other column, no
 * machine counts. Every call about the account or its machines stays 404.
 */
export const ZRestrictedAccountListItem = z.object({
  restricted: z.literal(true),
  id: z.number().int(),
  name: z.string(),
  classId: z.number().int(),
  class: ZClassRef,
});
export type TRestrictedAccountListItem = z.infer<typeof ZRestrictedAccountListItem>;

/** A row of `GET /accounts`: full ({@link ZAccountListItem}) or restricted ({@link ZRestrictedAccountListItem}), told apart by `restricted`. */
export const ZAccountListRow = z.discriminatedUnion('restricted', [ZAccountListItem, ZRestrictedAccountListItem]);
export type TAccountListRow = z.infer<typeof ZAccountListRow>;

export const ZListAccountsResponse = zPaged(ZAccountListRow);
export type TListAccountsResponse = z.infer<typeof ZListAccountsResponse>;
/**
 * A page of `GET /accounts` whose rows are all full: what a user of group
 * CustomerProductionAccess (who opens every account) is answered, and what
 * any user is answered for classes other than Customer Production.
 */
export type TFullAccountsPage = { items: TAccountListItem[]; totalItems: number };

/** `GET /accounts/info`: footer statistics of the accounts matching the filter. */
export const ZAccountsInfo = z.object({
  totalAccounts: z.number().int(),
  classMachineCounts: z.array(ZClassRef.extend({ machines: z.number().int() })),
  /** Machines of the matching accounts, total and per status. */
  machineCounts: ZMachineStatusCounts,
  /** Matching accounts that have at least one machine of each status. */
  accountCounts: ZMachineStatusCounts,
});
export type TAccountsInfo = z.infer<typeof ZAccountsInfo>;

export const ZLauncherLogin = z.object({
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  password: z.string(),
});
export type TLauncherLogin = z.infer<typeof ZLauncherLogin>;
export const ZLauncherLoginsResponse = z.array(ZLauncherLogin);

/** `GET /lookup/accounts`: id, name and class of the accounts the user may see. */
export const ZAccountLookup = z.object({ id: z.number().int(), name: z.string(), classId: z.number().int() });
/**
 * `GET /lookup/accounts` query: `parentCandidates=true` keeps only the accounts
 * an add-on may have as parent (spec 1 §5): no templates, no accounts that have
 * a parent, no add-on accounts.
 */
export const ZAccountLookupQuery = z.object({
  parentCandidates: ZQueryFlag.optional(),
});
export type TAccountLookupQuery = z.input<typeof ZAccountLookupQuery>;
export type TAccountLookup = z.infer<typeof ZAccountLookup>;
export const ZAccountLookupResponse = z.array(ZAccountLookup);
