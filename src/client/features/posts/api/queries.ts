import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PostPage } from '../../../../shared/api/posts';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';
import { landingStaleTime, markLanding } from '../../../api/landing';

/**
 * The posts feature's queries, under one root: every key another feature invalidates comes from
 * here (a moderator's Remove Post reads them all again; a follow, the posts of whom it follows).
 */
export const postQueries = {
  all: () => ['posts'] as const,
  /** The home feed, a page (100 posts) at a time. */
  feed: () =>
    infiniteQueryOptions({
      queryKey: [...postQueries.all(), 'feed'],
      queryFn: ({ pageParam }) => call('feed', { query: cursorQuery(pageParam) }),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: landingStaleTime,
    }),
  /** Every post page's post (not its Discover list). */
  details: () => [...postQueries.all(), 'detail'] as const,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.details(), id],
      queryFn: () => call('post', { params: { id } }).then((r) => r.post),
      retry: false,
      staleTime: landingStaleTime,
    }),
  /** The Discover list under a post. */
  related: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.all(), 'related', id],
      queryFn: () => call('related', { params: { id } }).then((r) => r.posts),
    }),
};

/** The feed's first page, as the server sent it with the home page (first-view.ts). */
export function seedFeed(queryClient: QueryClient, page: PostPage) {
  const { queryKey } = postQueries.feed();
  markLanding(queryKey);
  queryClient.setQueryData(queryKey, { pages: [page], pageParams: [''] });
}
