import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteBody } from '../../../../shared/api/invites';
import { call } from '../../../api/http';
import { moderationQueries } from './moderation';

export const useInvites = () => useQuery(moderationQueries.invites());

/** Makes a code; the list is read again afterwards. The code itself is in this answer only. */
export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInviteBody) => call('createInvite', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moderationQueries.invites().queryKey }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('revokeInvite', { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moderationQueries.invites().queryKey }),
  });
}
