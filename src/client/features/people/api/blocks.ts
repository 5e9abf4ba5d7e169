import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { boardQueries } from '../../boards';
import { postQueries } from '../../posts';
import { searchQueries } from '../../search';
import { profileQueries } from './profile';

/** Whom the signed-in user blocked (Settings → Blocked Accounts). */
export const blockedAccountsQuery = () =>
  queryOptions({
    queryKey: ['blocks'],
    queryFn: () => call('blocks').then((r) => r.users),
  });

/**
 * Blocks (true) or unblocks (false) someone. A block ends the follows both ways and hides each
 * from the other, so profiles (counts, lists, the block itself), the feed and post pages,
 * searches, boards and the Blocked Accounts list read differently: those are read again. Who is
 * signed in, sessions and the moderation lists are not touched.
 */
export function useSetBlocked(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blocked: boolean) => call(blocked ? 'block' : 'unblock', { params: { username } }),
    onSuccess: () =>
      Promise.all(
        [profileQueries.all(), postQueries.all(), searchQueries.all(), boardQueries.all(), blockedAccountsQuery().queryKey].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
