/** Query keys of the Notifications screen (issue 28 point 3): the channels with their subscriptions, and the recent deliveries. */
export const notificationChannelKeys = {
  all: ['notification-channels'] as const,
  channels: () => [...notificationChannelKeys.all, 'channels'] as const,
  deliveries: () => [...notificationChannelKeys.all, 'deliveries'] as const,
};
