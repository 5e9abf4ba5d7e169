import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ChangeEmailBody } from '../../../shared/api/email-verification';
import { CURRENT_USER_KEY, setCurrentUser } from '../../api/current-user';
import { call } from '../../api/http';

/** A mailed link's token, used once: the page asks once, and a reload shows the answer it got. */
export function useVerifyLink(token: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['verify-link', token],
    queryFn: async () => {
      const answer = await call('verifyLink', { body: { token } });
      // This browser may be the account's: its "Check your inbox" notices end now.
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      return answer;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** The mail's 6-digit code, typed here; the answer is the account as it is now. */
export function useVerifyCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call('verifyCode', { body: { code } }),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}

/** **Resend**: a new link and code; the old ones stop working. */
export function useResendVerification() {
  return useMutation({ mutationFn: () => call('resendVerification') });
}

/** Settings → E-mail address: a new address (pending until verified, with mail), or the current one to cancel. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => call('changeEmail', { body }),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}

/** Reads the account again: it may have been verified elsewhere (a link opened on a phone). */
export function useRefreshCurrentUser() {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }), [queryClient]);
}
