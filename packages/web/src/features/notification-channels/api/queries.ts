/**
 * Reads of the Notifications screen (issue 28 point 3): `GET /notification-channels`
 * and `GET /notification-deliveries` (the newest 50). The deliveries refetch every
 * {@link DELIVERIES_REFRESH_MS} while the screen is open, so a test message shows
 * Sent, or a failing receiver its retries, without a reload.
 */
import { useQuery } from '@tanstack/react-query';
import type { TNotificationChannel, TNotificationDelivery } from '@fleet/contracts';
import { api } from '../../../app/api-client';
import { notificationChannelKeys } from './keys';

/** How often the deliveries list refetches, ms. */
export const DELIVERIES_REFRESH_MS = 2_000;

export function useNotificationChannels() {
  return useQuery({
    queryKey: notificationChannelKeys.channels(),
    queryFn: ({ signal }) => api.get<TNotificationChannel[]>('notification-channels', { signal }),
  });
}

export function useNotificationDeliveries() {
  return useQuery({
    queryKey: notificationChannelKeys.deliveries(),
    queryFn: ({ signal }) => api.get<TNotificationDelivery[]>('notification-deliveries', { signal, searchParams: { limit: 50 } }),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}
