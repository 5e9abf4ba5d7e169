import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteBody, InviteList, NewInvite } from '../../../../shared/api/invites';
import { API } from '../../../../shared/api/paths';
import { ApiError, api } from '../../../api/http';

const INVITES_KEY = ['invites'] as const;

/** The invite codes that still work (admins; a 404 for anyone else). */
export function useInvites() {
  return useQuery({
    queryKey: INVITES_KEY,
    queryFn: () => api<InviteList>('GET', API.invites).then((r) => r.invites),
    // A 404 is the answer (not an admin), not a hiccup to retry.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** Makes a code; the list is read again afterwards. The code itself is in this answer only. */
export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInviteBody) => api<NewInvite>('POST', API.invites, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INVITES_KEY }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', API.invite(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INVITES_KEY }),
  });
}
