import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';

/** The people feature's queries: each user's profile, posts and follow lists, under ['profile', username]. */
export const profileQueries = {
  all: () => ['profile'] as const,
  /** Everything shown on one user's pages. */
  of: (username: string) => [...profileQueries.all(), username] as const,
  detail: (username: string) =>
    queryOptions({
      queryKey: profileQueries.of(username),
      queryFn: () => call('user', { params: { username } }).then((r) => r.user),
      retry: false,
    }),
  /** A user's posts, 50 at a time. */
  posts: (username: string) =>
    infiniteQueryOptions({
      queryKey: [...profileQueries.of(username), 'posts'],
      queryFn: ({ pageParam }) => call('userPosts', { params: { username }, query: cursorQuery(pageParam) }),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
  /** Followers or following of a user, a page at a time. */
  followList: (username: string, side: 'followers' | 'following') =>
    infiniteQueryOptions({
      queryKey: [...profileQueries.of(username), side],
      queryFn: ({ pageParam }) =>
        call(side === 'followers' ? 'followers' : 'following', { params: { username }, query: cursorQuery(pageParam) }),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: false,
    }),
};
