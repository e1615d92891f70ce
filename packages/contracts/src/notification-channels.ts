/**
 * Notification channels, subscriptions and deliveries (issue 28 point 3; DESIGN
 * §18): an admin adds channels (a webhook signed with HMAC-SHA256, a
 * Slack-compatible incoming webhook, an email address), subscribes them to fleet
 * events, optionally of one class or one account, sends a test message, and
 * watches the deliveries of the worker's durable outbox
 * (`packages/server/src/engine/notification-delivery/README.md`).
 *
 * Every route is for admins only (permission admin, or write with group
 * CustomerProductionAccess); the others get 403.
 */
import { z } from 'zod';
import { INT4_MAX, ZId } from './common.js';

/** The kinds of channel: a signed JSON webhook, a Slack-compatible incoming webhook, an email address. */
export const NOTIFICATION_CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
export const ZNotificationChannelKind = z.enum(NOTIFICATION_CHANNEL_KINDS);
export type TNotificationChannelKind = z.infer<typeof ZNotificationChannelKind>;

/**
 * The events a subscription may name: a rollout halted, completed, or one of its
 * waves waiting for approval; an operation waiting for approval (pending); a
 * machine in Panic (needsAdmin); a class's MMA instance switched to standby (an
 * anomaly, or an operator); an issue opened or reopened.
 */
export const NOTIFICATION_EVENT_KINDS = [
  'RolloutHalted',
  'RolloutCompleted',
  'RolloutAwaitingApproval',
  'OperationPendingApproval',
  'MachinePanic',
  'ClassStandby',
  'IssueOpened',
] as const;
export const ZNotificationEventKind = z.enum(NOTIFICATION_EVENT_KINDS);
export type TNotificationEventKind = z.infer<typeof ZNotificationEventKind>;

/** The console's labels of the event kinds (the settings screen, the messages). */
export const NOTIFICATION_EVENT_LABELS: Record<TNotificationEventKind | 'Test', string> = {
  RolloutHalted: 'Rollout halted',
  RolloutCompleted: 'Rollout completed',
  RolloutAwaitingApproval: 'Rollout wave waiting for approval',
  OperationPendingApproval: 'Operation pending approval',
  MachinePanic: 'Machine in Panic',
  ClassStandby: 'Class standby switched on',
  IssueOpened: 'Issue opened or reopened',
  Test: 'Test message',
};

/** Longest channel name, characters. */
export const NOTIFICATION_CHANNEL_NAME_MAX = 100;
/** Longest webhook URL, characters. */
export const NOTIFICATION_URL_MAX = 2000;
/** Most channels and most subscriptions per channel (the screen lists them all). */
export const NOTIFICATION_CHANNELS_MAX = 100;
export const NOTIFICATION_SUBSCRIPTIONS_MAX = 50;

/** `value` is an absolute http(s) URL: what a webhook or Slack channel may send to (the contract's rule and the console form's). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const ZHttpUrl = z
  .string()
  .trim()
  .min(1, 'URL is required')
  .max(NOTIFICATION_URL_MAX, `URL must have at most ${NOTIFICATION_URL_MAX} characters`)
  .refine(isHttpUrl, 'URL must be an http(s) URL');

const ZChannelName = z.string().trim().min(1, 'Name is required').max(NOTIFICATION_CHANNEL_NAME_MAX, `Name must have at most ${NOTIFICATION_CHANNEL_NAME_MAX} characters`);

const ZEmailAddress = z.string().trim().max(254).email('Address must be an email address');

/** `POST /notification-channels`: a webhook or Slack channel with its URL, or an email channel with its address. */
export const ZCreateNotificationChannelRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('webhook'), name: ZChannelName, url: ZHttpUrl }),
  z.object({ kind: z.literal('slack'), name: ZChannelName, url: ZHttpUrl }),
  z.object({ kind: z.literal('email'), name: ZChannelName, address: ZEmailAddress }),
]);
export type TCreateNotificationChannelRequest = z.infer<typeof ZCreateNotificationChannelRequest>;

/**
 * `PATCH /notification-channels/{id}`: a new name, a webhook's or Slack
 * channel's new `url`, an email channel's new `address` (the kind stays; a
 * webhook keeps its signing secret). What is left out is kept.
 */
export const ZUpdateNotificationChannelRequest = z.object({ name: ZChannelName.optional(), url: ZHttpUrl.optional(), address: ZEmailAddress.optional() });
export type TUpdateNotificationChannelRequest = z.infer<typeof ZUpdateNotificationChannelRequest>;

/** One subscription of a channel: the events it receives, optionally only those of one class or one account. */
export const ZNotificationSubscription = z.object({
  id: z.number().int(),
  channelId: z.number().int(),
  events: z.array(ZNotificationEventKind),
  /** Only events of machines, operations, issues or MMA instances of this class; null: any. */
  classId: z.number().int().nullable(),
  /** Only events of this account's machines, operations or issues; null: any. */
  accountId: z.number().int().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type TNotificationSubscription = z.infer<typeof ZNotificationSubscription>;

/** One channel as the list shows it: where it sends (the URL or the address; never its secret) and its subscriptions. */
export const ZNotificationChannel = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: ZNotificationChannelKind,
  /** The webhook's URL or the email address. */
  target: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  subscriptions: z.array(ZNotificationSubscription),
});
export type TNotificationChannel = z.infer<typeof ZNotificationChannel>;

/** `GET /notification-channels`: every channel, oldest first. */
export const ZNotificationChannelList = z.array(ZNotificationChannel);

/**
 * `POST /notification-channels` answers the channel and, for a webhook, its
 * signing secret: shown this once (stored encrypted, never answered again).
 */
export const ZCreatedNotificationChannel = ZNotificationChannel.extend({
  /** The HMAC-SHA256 key of `X-Fleet-Signature` (64 hex characters); null for other kinds. */
  secret: z.string().nullable(),
});
export type TCreatedNotificationChannel = z.infer<typeof ZCreatedNotificationChannel>;

/** `POST /notification-channels/{id}/subscriptions`. */
export const ZCreateNotificationSubscriptionRequest = z.object({
  events: z
    .array(ZNotificationEventKind)
    .min(1, 'Choose at least one event')
    .max(NOTIFICATION_EVENT_KINDS.length)
    .refine((events) => new Set(events).size === events.length, 'Name each event once'),
  classId: z.number().int().min(1).max(INT4_MAX).nullable().default(null),
  accountId: z.number().int().min(1).max(INT4_MAX).nullable().default(null),
});
export type TCreateNotificationSubscriptionRequest = z.input<typeof ZCreateNotificationSubscriptionRequest>;

export const ZNotificationSubscriptionParams = z.object({ id: ZId, subscriptionId: ZId });

/** Where a delivery stands: waiting (first try or a retry), sent, or failed for good after its last attempt. */
export const NOTIFICATION_DELIVERY_STATUSES = ['Pending', 'Sent', 'Failed'] as const;
export const ZNotificationDeliveryStatus = z.enum(NOTIFICATION_DELIVERY_STATUSES);

/** One delivery of an event to a channel (the outbox row). */
export const ZNotificationDelivery = z.object({
  /** Also the `X-Fleet-Delivery` header, by which a receiver drops a duplicate. */
  id: z.number().int(),
  channelId: z.number().int(),
  channelName: z.string(),
  event: z.enum([...NOTIFICATION_EVENT_KINDS, 'Test'] as const),
  status: ZNotificationDeliveryStatus,
  /** Attempts made so far. */
  attempts: z.number().int(),
  /** The last failed attempt's error; null when none failed. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** When a Pending delivery is tried next. */
  nextAttemptAt: z.string().nullable(),
});
export type TNotificationDelivery = z.infer<typeof ZNotificationDelivery>;

/** Most deliveries one `GET /notification-deliveries` answers. */
export const NOTIFICATION_DELIVERIES_LIMIT_MAX = 200;

/** `GET /notification-deliveries`: the newest first, optionally of one channel. */
export const ZNotificationDeliveriesQuery = z.object({
  channelId: ZId.optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_DELIVERIES_LIMIT_MAX).default(50),
});
export const ZNotificationDeliveryList = z.array(ZNotificationDelivery);

/** `POST /notification-channels/{id}/test`: the queued test delivery. */
export const ZNotificationTestResponse = z.object({ deliveryId: z.number().int() });
export type TNotificationTestResponse = z.infer<typeof ZNotificationTestResponse>;
