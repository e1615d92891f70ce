/**
 * The notification channels module (issue 28 point 3; DESIGN §18): channels,
 * their subscriptions, test messages and the outbox's deliveries, for admins.
 * Provides `app.services.notificationChannels` (`NotificationChannelService`);
 * needs audit. The worker's `engine/notification-delivery` sends what it queues.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createNotificationChannelService } from './notification-channels.service.js';
import { notificationChannelRoutes } from './notification-channels.routes.js';

export const notificationChannelsModule = defineModule({
  name: 'notificationChannels',
  needs: [auditModule],
  service: ({ db, secrets }, { audit }) => createNotificationChannelService({ db, audit, secrets }),
  routes: notificationChannelRoutes,
  tags: [
    {
      name: 'Notification Channels',
      description: 'Where fleet events are sent (issue 28): webhooks signed with HMAC-SHA256, Slack-compatible incoming webhooks and email, their subscriptions and deliveries. Admins only.',
    },
  ],
});
