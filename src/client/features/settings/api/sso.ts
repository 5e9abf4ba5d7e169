import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';

const STATE_KEY = ['sso-state'] as const;

/** Whether the account is connected, and whether it has a password of its own. */
export const useSsoState = () => useQuery({ queryKey: STATE_KEY, queryFn: () => call('ssoState') });

export function useSsoUnlink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('ssoUnlink'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STATE_KEY }),
  });
}
