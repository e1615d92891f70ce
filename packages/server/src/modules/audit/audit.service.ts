/**
 * The audit log (spec 2 §2.11, §7 Audit; DESIGN §5; issue 24 point 6): every
 * operator mutation is recorded with action code, user, time, accounts, params
 * and field-level changes, in the transaction of the change itself.
 *
 * Reads leave out every activity that concerns an account of a class the user
 * may not see (Customer Production without the group): absent from the list,
 * 404 by id, and a 404 anchor.
 */
import {
  INT4_MAX,
  MAX_ACTIVITY_USERS,
  MAX_NAMED_PER_ACTIVITY,
  type TAuditChange,
  type TUserActivity,
  type TUserActivityDetail,
  type ZUserActivitiesQuery,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/problem.js';
import { activityVisible, insertActivity, selectActivities, selectActivity, selectActivityUsers, selectNamed, type AuditEntry } from './audit.repository.js';

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

/** Params that hold machine ids, and account ids (a number or a list of numbers). */
const MACHINE_PARAMS = ['machineId', 'machineIds', 'machines'];
const ACCOUNT_PARAMS = ['accountId', 'accountIds', 'accounts'];
const ENTITY = /^(Machine|Account) (\d{1,10})$/;

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= INT4_MAX;

/**
 * The machine and account ids an activity names, first seen first, at most
 * {@link MAX_NAMED_PER_ACTIVITY} of each: its changes' entity names (`Machine 17`,
 * `Account 4`), its params machineId(s) / machines and accountId(s) / accounts,
 * and its accounts.
 */
export function namedIds(activity: TUserActivity): { machineIds: number[]; accountIds: number[] } {
  const machines = new Set<number>();
  const accounts = new Set<number>();
  const add = (set: Set<number>, v: unknown) => {
    for (const id of Array.isArray(v) ? v : [v]) {
      if (set.size >= MAX_NAMED_PER_ACTIVITY) return;
      if (isId(id)) set.add(id);
    }
  };
  for (const c of activity.metadata.changes) {
    const m = ENTITY.exec(c.entityName);
    if (m) add(m[1] === 'Machine' ? machines : accounts, Number(m[2]));
  }
  for (const key of MACHINE_PARAMS) add(machines, activity.metadata.params[key]);
  for (const key of ACCOUNT_PARAMS) add(accounts, activity.metadata.params[key]);
  add(
    accounts,
    activity.accounts.map((a) => a.id),
  );
  return { machineIds: [...machines], accountIds: [...accounts] };
}

export interface AuditService {
  /** Records an activity inside `tx` (the mutation's own transaction). */
  record(tx: DbOrTx, entry: AuditEntry): Promise<number>;
  /**
   * `GET /user-activities`: the page of activities the principal may see that
   * match the query (see `ZUserActivitiesQuery`). 404 for an unknown or hidden
   * anchor (`fromId`, `beforeId`).
   */
  list(principal: Principal, query: z.output<typeof ZUserActivitiesQuery>): Promise<TUserActivity[]>;
  /** `GET /user-activities/{id}`: the activity with the machines and accounts it names. 404 unknown or hidden. */
  get(principal: Principal, id: number): Promise<TUserActivityDetail>;
  /** `GET /user-activities/users`: the users of the activities the principal may see, by name. */
  users(principal: Principal): Promise<string[]>;
}

export function createAuditService({ db }: { db: Db }): AuditService {
  return {
    record: (tx, entry) => insertActivity(tx, entry),

    async list(principal, q) {
      const hidden = hiddenClassIds(principal);
      for (const anchor of [q.fromId, q.beforeId]) {
        if (anchor !== undefined && !(await activityVisible(db, anchor, hidden))) throw notFound(`Activity ${anchor}`);
      }
      return selectActivities(
        db,
        {
          accountId: q.accountId,
          action: q.action,
          user: q.user,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
          signIns: q.signIns ?? false,
          hiddenClassIds: hidden,
        },
        { startIndex: q.startIndex, limit: q.limit, descending: q.sortDirection === 'Descending', fromId: q.fromId, beforeId: q.beforeId },
      );
    },

    async get(principal, id) {
      const hidden = hiddenClassIds(principal);
      const activity = await selectActivity(db, id, hidden);
      if (!activity) throw notFound(`Activity ${id}`);
      const named = await selectNamed(db, { ...namedIds(activity), hiddenClassIds: hidden });
      return { ...activity, named };
    },

    users: (principal) => selectActivityUsers(db, hiddenClassIds(principal), MAX_ACTIVITY_USERS),
  };
}
