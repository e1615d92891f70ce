import type { TNotificationChannelKind } from '@fleet/contracts';

/** The notification channels' kinds as the screen names them (issue 28 point 3): the list's Kind column and the add dialog's choice. */
export const CHANNEL_KIND_LABELS: Record<TNotificationChannelKind, string> = {
  webhook: 'Webhook (signed JSON)',
  slack: 'Slack-compatible webhook',
  email: 'Email',
};
