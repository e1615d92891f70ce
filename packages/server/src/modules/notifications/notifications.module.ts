/**
 * The notifications module (spec 2 §7 Notifications): messages queued for
 * machines and the machines of accounts. Provides `app.services.notifications`
 * (`NotificationService`); needs audit.
 */
import { defineModule } from '../module.js';
import { auditModule } from '../audit/audit.module.js';
import { createNotificationService } from './notifications.service.js';
import { notificationRoutes } from './notifications.routes.js';

export const notificationsModule = defineModule({
  name: 'notifications',
  needs: [auditModule],
  service: ({ db }, { audit }) => createNotificationService({ db, audit }),
  routes: notificationRoutes,
  tags: [{ name: 'Notifications', description: 'Messages queued for machines and the machines of accounts (spec 2 §7 Notifications).' }],
});
