/** `POST /notification/send`, `GET /notification/messages` (spec 2 §7 Notifications). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZPendingMessagesQuery, ZPendingMessagesResponse, ZSendNotificationRequest, ZSendNotificationResponse } from '@fleet/contracts';

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Notifications'];
  app.post(
    '/notification/send',
    {
      schema: {
        operationId: 'sendNotification',
        description:
          'Queues a message (title, body, priority) for the listed machines and every machine of the listed accounts (spec 2 §7 Notifications). 400 naming unknown machines or accounts. Audited.',
        tags,
        summary: 'Queue a message for the machines and the machines of the accounts',
        body: ZSendNotificationRequest,
        response: { 200: ZSendNotificationResponse },
      },
    },
    (req) => app.services.notifications.send({ principal: req.principal!, body: req.body }),
  );
  app.get(
    '/notification/messages',
    {
      schema: {
        operationId: 'listPendingMessages',
        description: 'Messages not yet delivered, newest first, optionally of one machine, paged (spec 2 §7 Notifications).',
        tags,
        summary: 'Messages not yet delivered, newest first',
        querystring: ZPendingMessagesQuery,
        response: { 200: ZPendingMessagesResponse },
      },
    },
    (req) => app.services.notifications.pending({ principal: req.principal!, query: req.query }),
  );
};
