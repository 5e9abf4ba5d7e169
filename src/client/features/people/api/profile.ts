import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { PostPage } from '../../../../shared/api/posts';
import type { ProfileResponse, UserPage } from '../../../../shared/api/users';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

const withCursor = (path: string, cursor: string) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

/** The people feature's queries: each user's profile, posts and follow lists, under ['profile', username]. */
export const profileQueries = {
  all: () => ['profile'] as const,
  /** Everything shown on one user's pages. */
  of: (username: string) => [...profileQueries.all(), username] as const,
  detail: (username: string) =>
    queryOptions({
      queryKey: profileQueries.of(username),
      queryFn: () => api<ProfileResponse>('GET', API.user(username)).then((r) => r.user),
      retry: false,
    }),
  /** A user's posts, 50 at a time. */
  posts: (username: string) =>
    infiniteQueryOptions({
      queryKey: [...profileQueries.of(username), 'posts'],
      queryFn: ({ pageParam }) => api<PostPage>('GET', withCursor(API.userPosts(username), pageParam)),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
  /** Followers or following of a user, a page at a time. */
  followList: (username: string, side: 'followers' | 'following') =>
    infiniteQueryOptions({
      queryKey: [...profileQueries.of(username), side],
      queryFn: ({ pageParam }) =>
        api<UserPage>('GET', withCursor(side === 'followers' ? API.followers(username) : API.following(username), pageParam)),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: false,
    }),
};
