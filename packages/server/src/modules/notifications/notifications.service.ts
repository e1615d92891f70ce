/**
 * Notifications to the users of machines (spec 2 §2.3 Notification, §3, §7
 * Notifications): `send` stores one pending message per target machine (the
 * machines named and every live machine of the accounts named) and audits it;
 * `pending` lists the messages not yet delivered.
 *
 * A target the user may not see (unknown, terminated, Customer Production
 * without the group) is a 400 naming `machines` or `accounts`.
 *
 * Messages are delivered by the operation agent's pass once their machine runs
 * managed (`deliverPendingMessages` in `engine/operations/agent-pass.repository.ts`);
 * delivered ones leave the pending list.
 */
import type { z } from 'zod';
import type { TPendingMessagesResponse, ZSendNotificationRequest } from '@fleet/contracts';
import { readAll, type Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { badRequest } from '../../lib/problem.js';
import type { AuditService } from '../audit/audit.service.js';
import { selectVisibleTargets } from '../machines/machines.repository.js';
import { insertMessages, selectPendingMessages } from './notifications.repository.js';

export interface NotificationService {
  send(o: { principal: Principal; body: z.output<typeof ZSendNotificationRequest> }): Promise<{ queued: number }>;
  pending(o: { principal: Principal; query: { startIndex: number; limit: number; machineId?: number } }): Promise<TPendingMessagesResponse>;
}

export function createNotificationService({ db, audit }: { db: Db; audit: AuditService }): NotificationService {
  return {
    async send({ principal, body: b }) {
      return db.transaction(async (tx) => {
        const hidden = hiddenClassIds(principal);
        const [named, ofAccounts] = await readAll(tx, [
          () => selectVisibleTargets(tx, { machineIds: b.machines, accountIds: [], hiddenClassIds: hidden }),
          () => selectVisibleTargets(tx, { machineIds: [], accountIds: b.accounts, hiddenClassIds: hidden }),
        ]);
        const unknownMachines = b.machines.filter((id) => !named.some((m) => m.id === id));
        if (unknownMachines.length > 0) {
          throw badRequest([{ propertyName: 'machines', errorMessage: 'Unknown machines', attemptedValue: unknownMachines }]);
        }
        const unknownAccounts = b.accounts.filter((id) => !ofAccounts.some((m) => m.accountId === id));
        if (unknownAccounts.length > 0) {
          throw badRequest([{ propertyName: 'accounts', errorMessage: 'Unknown accounts, or accounts without machines', attemptedValue: unknownAccounts }]);
        }
        const targets = new Map([...named, ...ofAccounts].map((m) => [m.id, m]));
        const queued = await insertMessages(
          tx,
          [...targets.keys()].map((machineId) => ({ machineId, title: b.title, body: b.body, priority: b.priority, sentBy: principal.username })),
        );
        const accounts = new Map([...targets.values()].map((m) => [m.accountId, { id: m.accountId, name: m.accountName, classId: m.accountClassId }]));
        await audit.record(tx, {
          action: 'SendNotification',
          user: principal.username,
          accounts: [...accounts.values()],
          params: { title: b.title, priority: b.priority, machines: [...targets.keys()], accounts: b.accounts },
        });
        return { queued };
      });
    },

    pending: ({ principal, query }) => selectPendingMessages(db, { ...query, hiddenClassIds: hiddenClassIds(principal) }),
  };
}
