import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { PostPage } from '../../../../shared/api/posts';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

export const FEED_KEY = ['feed'] as const;

/** The home feed, a page (100 posts) at a time. */
export const feedQuery = infiniteQueryOptions({
  queryKey: FEED_KEY,
  queryFn: ({ pageParam }) => api<PostPage>('GET', pageParam ? `${API.posts}?cursor=${encodeURIComponent(pageParam)}` : API.posts),
  initialPageParam: '',
  getNextPageParam: (last) => last.nextCursor ?? undefined,
});

export function useFeed() {
  return useInfiniteQuery(feedQuery);
}
