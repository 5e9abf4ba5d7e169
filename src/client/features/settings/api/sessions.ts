import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '../../../../shared/api/sessions';
import { CURRENT_USER_KEY } from '../../../api/current-user';
import { call } from '../../../api/http';

/** Where the signed-in user is signed in (Settings → Sessions). */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: ['sessions'],
    queryFn: () => call('sessions').then((r) => r.sessions),
  });

export const useSessions = () => useQuery(sessionsQuery());

/** Signs out one of the user's other sessions; the list is read again afterwards. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('endSession', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey }),
  });
}

/**
 * Change Password; every other session ends, so the Sessions list is stale after it (and the
 * account, which may just have added its first password: issue 29).
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call('changePassword', { body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey });
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
