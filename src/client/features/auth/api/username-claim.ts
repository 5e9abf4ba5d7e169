import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { signedInAs } from '../../../api/current-user';

/** The name and address a claim link makes the account with, while it is still good (asking does not use it up). */
export function useClaimCheck(token: string) {
  return useQuery({
    queryKey: ['claim-check', token],
    queryFn: () => call('claimCheck', { body: { token } }),
    retry: false,
    staleTime: Infinity,
  });
}

/** Makes the account; the server signs this browser in as it. */
export function useClaimUsername() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call('claimUsername', { body: { token } }),
    onSuccess: ({ user }) => signedInAs(queryClient, user),
  });
}
