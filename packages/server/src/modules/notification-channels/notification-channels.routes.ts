/**
 * Routes of the notification channels (issue 28 point 3; `notification-channels.service.ts`):
 * list, add, edit and remove channels, add and remove their subscriptions, send a test
 * message, list the recent deliveries. Admins only (403 for others).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreatedNotificationChannel,
  ZCreateNotificationChannelRequest,
  ZCreateNotificationSubscriptionRequest,
  ZIdParams,
  ZNotificationChannel,
  ZNotificationChannelList,
  ZNotificationDeliveriesQuery,
  ZNotificationDeliveryList,
  ZNotificationSubscription,
  ZNotificationSubscriptionParams,
  ZNotificationTestResponse,
  ZOk,
  ZUpdateNotificationChannelRequest,
} from '@fleet/contracts';

const ADMINS = 'Admins only (permission admin, or write with group CustomerProductionAccess): 403 for others.';

export const notificationChannelRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Notification Channels'];
  const service = () => app.services.notificationChannels;

  app.get(
    '/notification-channels',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'listNotificationChannels',
        description: `Every notification channel with where it sends and its subscriptions, oldest first (issue 28); never a webhook's secret. ${ADMINS}`,
        tags,
        summary: 'List notification channels (admins)',
        response: { 200: ZNotificationChannelList },
      },
    },
    (req) => service().list({ principal: req.principal! }),
  );
  app.post(
    '/notification-channels',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createNotificationChannel',
        description: `Adds a channel: a webhook (POST JSON signed with X-Fleet-Signature: sha256=<HMAC-SHA256 of the body>), a Slack-compatible incoming webhook, or an email address. A webhook's secret is answered this once. 409 past 100 channels. Audited AddNotificationChannel. ${ADMINS}`,
        tags,
        summary: 'Add a notification channel (admins, audited)',
        body: ZCreateNotificationChannelRequest,
        response: { 200: ZCreatedNotificationChannel },
      },
    },
    (req) => service().create({ principal: req.principal!, request: req.body }),
  );
  app.post(
    '/notification-channels/:id/subscriptions',
    {
      config: { problems: [409] },
      schema: {
        operationId: 'createNotificationSubscription',
        description: `Subscribes a channel to event kinds, optionally only those of one class or one account (400 when it does not exist). Events from then on are delivered; a channel gets an event once however many of its subscriptions match. 404 unknown channel; 409 past 50 subscriptions. Audited AddNotificationSubscription. ${ADMINS}`,
        tags,
        summary: 'Subscribe a channel to events (admins, audited)',
        params: ZIdParams,
        body: ZCreateNotificationSubscriptionRequest,
        response: { 200: ZNotificationSubscription },
      },
    },
    (req) => service().subscribe({ principal: req.principal!, channelId: req.params.id, request: req.body }),
  );
  app.delete(
    '/notification-channels/:id/subscriptions/:subscriptionId',
    {
      schema: {
        operationId: 'deleteNotificationSubscription',
        description: `Removes a subscription. 404 unknown. Audited RemoveNotificationSubscription. ${ADMINS}`,
        tags,
        summary: 'Remove a subscription (admins, audited)',
        params: ZNotificationSubscriptionParams,
        response: { 200: ZOk },
      },
    },
    (req) => service().unsubscribe({ principal: req.principal!, channelId: req.params.id, subscriptionId: req.params.subscriptionId }),
  );
  app.post(
    '/notification-channels/:id/test',
    {
      schema: {
        operationId: 'testNotificationChannel',
        description: `'Send test message': queues a test message to the channel through the worker's outbox; its delivery shows in GET /notification-deliveries. 404 unknown. Audited TestNotificationChannel. ${ADMINS}`,
        tags,
        summary: 'Send a test message (admins, audited)',
        params: ZIdParams,
        response: { 200: ZNotificationTestResponse },
      },
    },
    (req) => service().test({ principal: req.principal!, id: req.params.id }),
  );
  app.patch(
    '/notification-channels/:id',
    {
      schema: {
        operationId: 'updateNotificationChannel',
        description: `Renames a channel, or points it elsewhere: a webhook's or Slack channel's \`url\`, an email channel's \`address\` (the kind stays; a webhook keeps its signing secret). What is left out is kept; changing nothing records nothing. 404 unknown; 400 naming \`url\` for an email channel or \`address\` for the others. Audited EditNotificationChannel. ${ADMINS}`,
        tags,
        summary: 'Edit a notification channel (admins, audited)',
        params: ZIdParams,
        body: ZUpdateNotificationChannelRequest,
        response: { 200: ZNotificationChannel },
      },
    },
    (req) => service().update({ principal: req.principal!, id: req.params.id, request: req.body }),
  );
  app.delete(
    '/notification-channels/:id',
    {
      schema: {
        operationId: 'deleteNotificationChannel',
        description: `Removes a channel with its subscriptions and deliveries (those not sent are dropped). 404 unknown. Audited RemoveNotificationChannel. ${ADMINS}`,
        tags,
        summary: 'Remove a notification channel (admins, audited)',
        params: ZIdParams,
        response: { 200: ZOk },
      },
    },
    (req) => service().remove({ principal: req.principal!, id: req.params.id }),
  );
  app.get(
    '/notification-deliveries',
    {
      config: { requireWrite: true },
      schema: {
        operationId: 'listNotificationDeliveries',
        description: `The newest deliveries of the outbox first (default 50, at most 200), optionally of one channel: status Pending, Sent or Failed, attempts, the last error, when sent or tried next. ${ADMINS}`,
        tags,
        summary: 'List recent notification deliveries (admins)',
        querystring: ZNotificationDeliveriesQuery,
        response: { 200: ZNotificationDeliveryList },
      },
    },
    (req) => service().deliveries({ principal: req.principal!, query: req.query }),
  );
};
