/**
 * Accounts list, footer statistics, lookup, launcher logins and deletion
 * (spec 1 §2 Accounts list, §7 Accounts; DESIGN §5).
 *
 * Accounts of class Customer Production, for users without group
 * CustomerProductionAccess (spec 1 §2 Accounts list, §6): the list shows them
 * as restricted rows (name and class only: `TRestrictedAccountListItem`;
 * which filters they match: `accounts-filter.repository.ts`) and the footer
 * counts them; they are absent from lookups, and every call by id is 404.
 *
 * Known limitations: account details and settings sections belong to the account
 * lifecycle issue; the queued TerminateMachine tasks are run by the machines issue.
 */
import { ZListAccountsQuery, type TAccountLookup, type TAccountsInfo, type TLauncherLogin, type TListAccountsResponse } from '@fleet/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/problem.js';
import { jsonText } from '../../lib/json-text.js';
import { coalesce } from '../../lib/coalesce.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditService } from '../audit/audit.service.js';
import { linkTasksToActivity } from '../../engine/tasks/tasks.repository.js';
import * as repo from './accounts.repository.js';
import { selectAccountsInfo } from './accounts-filter.repository.js';

type ListQuery = z.output<typeof ZListAccountsQuery>;
type FilterQuery = Omit<ListQuery, 'sortBy' | 'sortDirection' | 'startIndex' | 'limit'>;

export interface AccountService {
  list(principal: Principal, query: ListQuery): Promise<TListAccountsResponse>;
  info(principal: Principal, query: FilterQuery): Promise<TAccountsInfo>;
  /** Visible accounts by name; `parentCandidates` keeps those an add-on may have as parent (spec 1 §5). */
  lookup(principal: Principal, opts?: { parentCandidates?: boolean }): Promise<TAccountLookup[]>;
  /** Decrypted launcher logins; each read is audited (ViewLauncherLogins). */
  launcherLogins(principal: Principal, accountId: number): Promise<TLauncherLogin[]>;
  /** Deletes the account and queues TerminateMachine for each machine; audited. */
  remove(principal: Principal, accountId: number): Promise<{ terminatedMachines: number }>;
}

export function createAccountService({ db, audit, secrets }: { db: Db; audit: AuditService; secrets: SecretBox }): AccountService {
  /** A page as JSON text; the consoles asking the same page at once share each read (lib/coalesce.ts). */
  const pageText = coalesce(
    async (q: Parameters<typeof repo.selectAccountPage>[1]) => JSON.stringify(await repo.selectAccountPage(db, q)),
    (q) => JSON.stringify(q),
  );
  return {
    // Written once by JSON.stringify and sent as it is (lib/json-text.ts): the items are typed by the contract.
    list: async (principal, q) => jsonText(await pageText({ ...q, hiddenClassIds: [], restrictedClassIds: hiddenClassIds(principal) })),

    info: (principal, q) => selectAccountsInfo(db, { ...q, hiddenClassIds: [], restrictedClassIds: hiddenClassIds(principal) }),

    lookup: (principal, opts = {}) => repo.selectAccountLookup(db, hiddenClassIds(principal), opts.parentCandidates ?? false),

    async launcherLogins(principal, accountId) {
      return db.transaction(async (tx) => {
        const account = await repo.findVisibleAccount(tx, accountId, hiddenClassIds(principal));
        if (!account) throw notFound(`Account ${accountId}`);
        const rows = await repo.selectLauncherLogins(tx, accountId);
        await audit.record(tx, {
          action: 'ViewLauncherLogins',
          user: principal.username,
          accounts: [account],
          params: { accountId, logins: rows.length },
        });
        return rows.map((r) => ({
          userName: r.userName,
          firstName: r.firstName,
          lastName: r.lastName,
          password: secrets.open(r.passwordEnc),
        }));
      });
    },

    async remove(principal, accountId) {
      return db.transaction(async (tx) => {
        const account = await repo.findVisibleAccount(tx, accountId, hiddenClassIds(principal), true);
        if (!account) throw notFound(`Account ${accountId}`);
        const { machineIds, taskIds } = await repo.softDeleteAccount(tx, accountId);
        const activityId = await audit.record(tx, {
          action: 'DeleteAccount',
          user: principal.username,
          accounts: [account],
          params: { accountId, name: account.name, terminatedMachineIds: machineIds },
          changes: [{ entityName: 'Account', propertyName: 'deleted', oldValue: false, newValue: true }],
        });
        await linkTasksToActivity(tx, taskIds, activityId);
        return { terminatedMachines: machineIds.length };
      });
    },
  };
}
