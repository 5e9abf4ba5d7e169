import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';

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
    }),
  /** Every post page's post (not its Discover list). */
  details: () => [...postQueries.all(), 'detail'] as const,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.details(), id],
      queryFn: () => call('post', { params: { id } }).then((r) => r.post),
      retry: false,
    }),
  /** The Discover list under a post. */
  related: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.all(), 'related', id],
      queryFn: () => call('related', { params: { id } }).then((r) => r.posts),
    }),
};
