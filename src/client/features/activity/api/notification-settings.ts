import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, NotificationSettings, PushSubscriptionBody } from '../../../../shared/api/activity';
import { call } from '../../../api/http';

/** Settings → Notifications: the switches, the devices with push, and the server's push key. */
export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: ['notification-settings'] as const,
    queryFn: () => call('notificationSettings'),
  });

const SAVE_KEY = ['notification-settings', 'save'] as const;

/**
 * Saves the switches. The page shows the new state at once; a failure puts back what was there
 * before. Each answer is the server's whole state, taken only when no later change is still on
 * its way (it would flip that change back until its own answer came).
 */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  const { queryKey } = notificationSettingsQuery();
  return useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: (settings: NotificationSettings) => call('updateNotificationSettings', { body: settings }),
    onMutate: async (settings) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, (current) => current && { ...current, settings });
      return { before };
    },
    onSuccess: (answer) => {
      if (queryClient.isMutating({ mutationKey: SAVE_KEY }) <= 1) queryClient.setQueryData(queryKey, answer);
    },
    onError: (_error, _settings, context) => {
      if (context?.before) queryClient.setQueryData(queryKey, context.before);
    },
  });
}

/** Adds or removes a device with push; both answer the whole state, which replaces the page's. */
export function usePushDevices() {
  const queryClient = useQueryClient();
  const replace = (answer: NotificationPreferences) => queryClient.setQueryData(notificationSettingsQuery().queryKey, answer);
  const add = useMutation({
    mutationFn: (subscription: PushSubscriptionBody) => call('addPushDevice', { body: subscription }),
    onSuccess: replace,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('removePushDevice', { params: { id } }),
    onSuccess: replace,
  });
  return { add, remove };
}
