/**
 * Notification channels (issue 28 point 3; DESIGN §18): the admin's settings of
 * where fleet events are sent. Every method is for admins only (permission admin,
 * or write with group CustomerProductionAccess): 403 for others, before anything
 * is read. Changes are audited in their own transaction
 * (AddNotificationChannel, EditNotificationChannel, RemoveNotificationChannel, AddNotificationSubscription,
 * RemoveNotificationSubscription, TestNotificationChannel).
 *
 * - `create`: a webhook's signing secret (32 random bytes, hex) is generated here,
 *   answered once and stored sealed with `DATA_KEY` (`lib/secret-box.ts`).
 *   409 past {@link NOTIFICATION_CHANNELS_MAX} channels.
 * - `update`: a new name and target; 404 unknown channel; 400 naming `url` for
 *   an email channel or `address` for a webhook or Slack one. Changing nothing
 *   records nothing.
 * - `subscribe`: 404 unknown channel; 400 (field errors) for a class or account
 *   filter that does not exist; 409 past {@link NOTIFICATION_SUBSCRIPTIONS_MAX}.
 * - `test`: queues a `Test` delivery through the same outbox as the events, so
 *   what the screen shows for it is what an event's delivery would show.
 *
 * A URL target is audited as its origin only ({@link auditedTarget}).
 *
 * Sending is not here: the worker's `engine/notification-delivery` does it.
 */
import { randomBytes } from 'node:crypto';
import {
  NOTIFICATION_CHANNELS_MAX,
  NOTIFICATION_SUBSCRIPTIONS_MAX,
  sessionRoles,
  type TCreatedNotificationChannel,
  type TCreateNotificationChannelRequest,
  type TNotificationChannel,
  type TNotificationDelivery,
  type TNotificationSubscription,
  type TNotificationTestResponse,
  type TUpdateNotificationChannelRequest,
  type ZCreateNotificationSubscriptionRequest,
  type ZNotificationDeliveriesQuery,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/problem.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditService } from '../audit/audit.service.js';
import * as repo from './notification-channels.repository.js';

export interface NotificationChannelService {
  list(o: { principal: Principal }): Promise<TNotificationChannel[]>;
  create(o: { principal: Principal; request: TCreateNotificationChannelRequest }): Promise<TCreatedNotificationChannel>;
  update(o: { principal: Principal; id: number; request: TUpdateNotificationChannelRequest }): Promise<TNotificationChannel>;
  remove(o: { principal: Principal; id: number }): Promise<{ ok: true }>;
  subscribe(o: { principal: Principal; channelId: number; request: z.output<typeof ZCreateNotificationSubscriptionRequest> }): Promise<TNotificationSubscription>;
  unsubscribe(o: { principal: Principal; channelId: number; subscriptionId: number }): Promise<{ ok: true }>;
  test(o: { principal: Principal; id: number }): Promise<TNotificationTestResponse>;
  deliveries(o: { principal: Principal; query: z.output<typeof ZNotificationDeliveriesQuery> }): Promise<TNotificationDelivery[]>;
}

/**
 * A channel's target as the audit trail keeps it: an email address as it is, a
 * URL only as its origin (`https://hooks.slack.com/…`), since a Slack or webhook
 * URL often is its own credential and every user may read the audit trail.
 */
export function auditedTarget(kind: string, target: string): string {
  if (kind === 'email') return target;
  try {
    return `${new URL(target).origin}/…`;
  } catch {
    return '…';
  }
}

function requireAdmin(principal: Principal): void {
  if (!sessionRoles(principal.permissions, principal.groups).includes('admin')) {
    throw forbidden('Only an admin (write with group CustomerProductionAccess) manages notification channels');
  }
}

export function createNotificationChannelService({ db, audit, secrets }: { db: Db; audit: AuditService; secrets: SecretBox }): NotificationChannelService {
  const channelOr404 = async (tx: DbOrTx, id: number) => {
    const [channel] = await repo.selectChannels(tx, id);
    if (!channel) throw notFound(`Notification channel ${id}`);
    return channel;
  };

  return {
    async list({ principal }) {
      requireAdmin(principal);
      return repo.selectChannels(db);
    },

    async create({ principal, request }) {
      requireAdmin(principal);
      const secret = request.kind === 'webhook' ? randomBytes(32).toString('hex') : null;
      const target = request.kind === 'email' ? request.address : request.url;
      return db.transaction(async (tx) => {
        await repo.lockChannelAdds(tx);
        if ((await repo.countChannels(tx)) >= NOTIFICATION_CHANNELS_MAX) throw conflict(`There are already ${NOTIFICATION_CHANNELS_MAX} notification channels`);
        const id = await repo.insertChannel(tx, { name: request.name, kind: request.kind, target, secret: secret && secrets.seal(secret), createdBy: principal.username });
        await audit.record(tx, {
          action: 'AddNotificationChannel',
          user: principal.username,
          params: { channelId: id, kind: request.kind },
          changes: [
            { entityName: `NotificationChannel ${id}`, propertyName: 'name', oldValue: null, newValue: request.name },
            { entityName: `NotificationChannel ${id}`, propertyName: 'target', oldValue: null, newValue: auditedTarget(request.kind, target) },
          ],
        });
        return { ...(await channelOr404(tx, id)), secret };
      });
    },

    async update({ principal, id, request }) {
      requireAdmin(principal);
      return db.transaction(async (tx) => {
        const channel = await channelOr404(tx, id);
        const errors = [
          ...(request.url !== undefined && channel.kind === 'email'
            ? [{ propertyName: 'url', errorMessage: 'An email channel has an address, not a URL', attemptedValue: request.url }]
            : []),
          ...(request.address !== undefined && channel.kind !== 'email'
            ? [{ propertyName: 'address', errorMessage: `A ${channel.kind} channel has a URL, not an address`, attemptedValue: request.address }]
            : []),
        ];
        if (errors.length > 0) throw badRequest(errors);
        const name = request.name ?? channel.name;
        const target = request.url ?? request.address ?? channel.target;
        const entityName = `NotificationChannel ${id}`;
        const changes = [
          ...(name === channel.name ? [] : [{ entityName, propertyName: 'name', oldValue: channel.name, newValue: name }]),
          ...(target === channel.target
            ? []
            : [{ entityName, propertyName: 'target', oldValue: auditedTarget(channel.kind, channel.target), newValue: auditedTarget(channel.kind, target) }]),
        ];
        if (changes.length === 0) return channel;
        await repo.updateChannel(tx, { id, name, target });
        await audit.record(tx, { action: 'EditNotificationChannel', user: principal.username, params: { channelId: id, kind: channel.kind }, changes });
        return channelOr404(tx, id);
      });
    },

    async remove({ principal, id }) {
      requireAdmin(principal);
      return db.transaction(async (tx) => {
        const channel = await channelOr404(tx, id);
        // A remove at the same time deleted it first: only that one is audited.
        if (!(await repo.deleteChannel(tx, id))) throw notFound(`Notification channel ${id}`);
        await audit.record(tx, {
          action: 'RemoveNotificationChannel',
          user: principal.username,
          params: { channelId: id, kind: channel.kind },
          changes: [{ entityName: `NotificationChannel ${id}`, propertyName: 'name', oldValue: channel.name, newValue: null }],
        });
        return { ok: true as const };
      });
    },

    async subscribe({ principal, channelId, request }) {
      requireAdmin(principal);
      return db.transaction(async (tx) => {
        // Its subscriptions are counted and added one request at a time.
        if (!(await repo.lockChannel(tx, channelId))) throw notFound(`Notification channel ${channelId}`);
        const channel = await channelOr404(tx, channelId);
        const { classOk, accountOk } = await repo.filtersExist(tx, request);
        const errors = [
          ...(classOk ? [] : [{ propertyName: 'classId', errorMessage: `Class ${request.classId} does not exist`, attemptedValue: request.classId }]),
          ...(accountOk ? [] : [{ propertyName: 'accountId', errorMessage: `Account ${request.accountId} does not exist`, attemptedValue: request.accountId }]),
        ];
        if (errors.length > 0) throw badRequest(errors);
        if (channel.subscriptions.length >= NOTIFICATION_SUBSCRIPTIONS_MAX) throw conflict(`The channel already has ${NOTIFICATION_SUBSCRIPTIONS_MAX} subscriptions`);
        const subscription = await repo.insertSubscription(tx, { channelId, ...request, createdBy: principal.username });
        await audit.record(tx, {
          action: 'AddNotificationSubscription',
          user: principal.username,
          params: { channelId, subscriptionId: subscription.id, events: request.events, classId: request.classId, accountId: request.accountId },
        });
        return subscription;
      });
    },

    async unsubscribe({ principal, channelId, subscriptionId }) {
      requireAdmin(principal);
      return db.transaction(async (tx) => {
        const removed = await repo.deleteSubscription(tx, channelId, subscriptionId);
        if (!removed) throw notFound(`Subscription ${subscriptionId} of notification channel ${channelId}`);
        await audit.record(tx, {
          action: 'RemoveNotificationSubscription',
          user: principal.username,
          params: { channelId, subscriptionId, events: removed.events, classId: removed.classId, accountId: removed.accountId },
        });
        return { ok: true as const };
      });
    },

    async test({ principal, id }) {
      requireAdmin(principal);
      return db.transaction(async (tx) => {
        await channelOr404(tx, id);
        const deliveryId = await repo.insertTestDelivery(tx, id);
        await audit.record(tx, { action: 'TestNotificationChannel', user: principal.username, params: { channelId: id, deliveryId } });
        return { deliveryId };
      });
    },

    async deliveries({ principal, query }) {
      requireAdmin(principal);
      return repo.selectDeliveries(db, query);
    },
  };
}
