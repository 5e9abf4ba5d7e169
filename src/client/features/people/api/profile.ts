import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { PostPage } from '../../../../shared/api/posts';
import type { ProfileResponse, UserPage } from '../../../../shared/api/users';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

export const profileKey = (username: string) => ['profile', username] as const;

export function useProfile(username: string) {
  return useQuery({
    queryKey: profileKey(username),
    queryFn: () => api<ProfileResponse>('GET', API.user(username)).then((r) => r.user),
    retry: false,
  });
}

const withCursor = (path: string, cursor: string) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

/** A user's posts, 50 at a time. */
export function useUserPosts(username: string) {
  return useInfiniteQuery({
    queryKey: [...profileKey(username), 'posts'],
    queryFn: ({ pageParam }) => api<PostPage>('GET', withCursor(API.userPosts(username), pageParam)),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Followers or following of a user, a page at a time. */
export function useFollowList(username: string, side: 'followers' | 'following') {
  return useInfiniteQuery({
    queryKey: [...profileKey(username), side],
    queryFn: ({ pageParam }) =>
      api<UserPage>('GET', withCursor(side === 'followers' ? API.followers(username) : API.following(username), pageParam)),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });
}
