/**
 * Changes on the Notifications screen (issue 28 point 3), each with its success
 * or error toast, invalidating what it changed: add, edit and remove a channel, add and
 * remove a subscription, 'Send test message' (which refetches the deliveries).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TCreatedNotificationChannel,
  TCreateNotificationChannelRequest,
  TCreateNotificationSubscriptionRequest,
  TNotificationChannel,
  TNotificationSubscription,
  TNotificationTestResponse,
  TUpdateNotificationChannelRequest,
} from '@fleet/contracts';
import { api, errorText } from '../../../app/api-client';
import { useToast } from '../../../app/toast';
import { notificationChannelKeys } from './keys';

function useChannelMutation<V, R>(call: (variables: V) => Promise<R>, texts: { success: string; error: string }, invalidate: readonly string[] = notificationChannelKeys.channels()) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: call,
    onSuccess: () => toast.success(texts.success),
    onError: (error) => toast.error(errorText(error, texts.error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invalidate }),
  });
}

export const useCreateNotificationChannel = () =>
  useChannelMutation((body: TCreateNotificationChannelRequest) => api.post<TCreatedNotificationChannel>('notification-channels', body), {
    success: 'Notification channel added',
    error: 'Error occurred adding the notification channel',
  });

export const useUpdateNotificationChannel = () =>
  useChannelMutation(
    ({ id, body }: { id: number; body: TUpdateNotificationChannelRequest }) => api.patch<TNotificationChannel>(`notification-channels/${id}`, body),
    // The deliveries name the channel too.
    { success: 'Notification channel saved', error: 'Error occurred saving the notification channel' },
    notificationChannelKeys.all,
  );

export const useDeleteNotificationChannel = () =>
  useChannelMutation((id: number) => api.delete<{ ok: true }>(`notification-channels/${id}`), {
    success: 'Notification channel removed',
    error: 'Error occurred removing the notification channel',
  }, notificationChannelKeys.all);

export const useCreateNotificationSubscription = () =>
  useChannelMutation(
    ({ channelId, body }: { channelId: number; body: TCreateNotificationSubscriptionRequest }) =>
      api.post<TNotificationSubscription>(`notification-channels/${channelId}/subscriptions`, body),
    { success: 'Subscription added', error: 'Error occurred adding the subscription' },
  );

export const useDeleteNotificationSubscription = () =>
  useChannelMutation(
    ({ channelId, id }: { channelId: number; id: number }) => api.delete<{ ok: true }>(`notification-channels/${channelId}/subscriptions/${id}`),
    { success: 'Subscription removed', error: 'Error occurred removing the subscription' },
  );

export const useTestNotificationChannel = () =>
  useChannelMutation((id: number) => api.post<TNotificationTestResponse>(`notification-channels/${id}/test`), {
    success: 'Test message queued',
    error: 'Error occurred sending the test message',
  }, notificationChannelKeys.deliveries());
