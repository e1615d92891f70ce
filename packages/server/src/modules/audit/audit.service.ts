/**
 * The audit log (spec 2 §2.11, §7 Audit; DESIGN §5): every operator mutation is
 * recorded with action code, user, time, accounts, params and field-level changes,
 * in the transaction of the change itself.
 */
import type { TAuditChange, TUserActivitiesQuery, TUserActivity } from '@fleet/contracts';
import { ZUserActivitiesQuery } from '@fleet/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { insertActivity, selectActivities, type AuditEntry } from './audit.repository.js';

export type { AuditEntry };

/**
 * Field-level changes between two flat records: one entry per property whose
 * value differs (compared as JSON), in the order of `after`'s keys.
 */
export function diffChanges(entityName: string, before: Record<string, unknown>, after: Record<string, unknown>): TAuditChange[] {
  const changes: TAuditChange[] = [];
  for (const [propertyName, newValue] of Object.entries(after)) {
    const oldValue = before[propertyName];
    if (JSON.stringify(oldValue ?? null) !== JSON.stringify(newValue ?? null)) {
      changes.push({ entityName, propertyName, oldValue: oldValue ?? null, newValue: newValue ?? null });
    }
  }
  return changes;
}

export interface AuditService {
  /** Records an activity inside `tx` (the mutation's own transaction). */
  record(tx: DbOrTx, entry: AuditEntry): Promise<number>;
  /** Activities the principal may see: none that concern an account of a hidden class. */
  list(principal: Principal, query: TUserActivitiesQuery): Promise<TUserActivity[]>;
}

export function createAuditService({ db }: { db: Db }): AuditService {
  return {
    record: (tx, entry) => insertActivity(tx, entry),
    async list(principal, query) {
      const q = ZUserActivitiesQuery.parse(query);
      return selectActivities(db, {
        accountId: q.accountId,
        action: q.action,
        startIndex: q.startIndex,
        limit: q.limit,
        descending: q.sortDirection === 'Descending',
        hiddenClassIds: hiddenClassIds(principal),
      });
    },
  };
}
