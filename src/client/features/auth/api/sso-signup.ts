import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { signedInAs } from '../../../api/current-user';
import { call } from '../../../api/http';

/** This browser's first single sign-on, waiting for its username: the provider's address and suggestion. */
export function useSsoSignup() {
  return useQuery({ queryKey: ['sso-signup'], queryFn: () => call('ssoSignup'), retry: false, staleTime: Infinity });
}

/** The username chosen: the account is made and this browser signed in. */
export function useCompleteSsoSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => call('ssoCompleteSignup', { body: { username } }),
    onSuccess: ({ user }) => signedInAs(queryClient, user),
  });
}
