import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { PostDetail } from '../../../../shared/api/posts';
import { useCurrentUser } from '../../../api/current-user';
import { call } from '../../../api/http';
import { profileQueries } from '../../people';
import { postQueries } from '../../posts';

/**
 * Follows (true) or unfollows (false) someone. What changed is read again, and only that: their
 * profile (followers count, the button) and followers list, the follower's own profile (following
 * count) and following list, and the pages of their posts (the author's count and button).
 */
export function useSetFollowing(username: string) {
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  return useMutation({
    mutationFn: (follow: boolean) => call(follow ? 'follow' : 'unfollow', { params: { username } }),
    onSuccess: () => {
      const stale: QueryKey[] = [profileQueries.detail(username).queryKey, profileQueries.followList(username, 'followers').queryKey];
      if (me) stale.push(profileQueries.detail(me.username).queryKey, profileQueries.followList(me.username, 'following').queryKey);
      for (const [queryKey, post] of queryClient.getQueriesData<PostDetail>({ queryKey: postQueries.details() })) {
        if (post?.author.username === username) stale.push(queryKey);
      }
      // Not awaited: the button shows the answer at once; the counts follow.
      for (const queryKey of stale) void queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}
