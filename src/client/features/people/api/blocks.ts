import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../shared/api/paths';
import type { BlockedAccounts, BlockState } from '../../../../shared/api/users';
import { api } from '../../../api/http';

const BLOCKS_KEY = ['blocks'] as const;

/** Whom the signed-in user blocked (Settings → Blocked Accounts). */
export function useBlockedAccounts() {
  return useQuery({
    queryKey: BLOCKS_KEY,
    queryFn: () => api<BlockedAccounts>('GET', API.blocks).then((r) => r.users),
  });
}

/**
 * Blocks (true) or unblocks (false) someone. Afterwards profiles (counts, the block itself),
 * feeds, searches, posts and the Blocked Accounts list may all read differently: read again.
 */
export function useSetBlocked(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blocked: boolean) => api<BlockState>(blocked ? 'PUT' : 'DELETE', API.block(username)),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
