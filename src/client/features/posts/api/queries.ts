import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PostPage } from '../../../../shared/api/posts';
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
      // A first page that came with the page is as fresh as an answer still on its way: the feed
      // that mounts at once uses it rather than asking again. Any other is read again on mount.
      staleTime: (query) => (query.state.dataUpdatedAt === seededAt ? SEEDED_FRESH_MS : 0),
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

/** How long the feed's first page sent with the home page counts as fresh (issue 28). */
const SEEDED_FRESH_MS = 10_000;
let seededAt = -1;

/** The feed's first page, as the server sent it with the home page (first-view.ts). */
export function seedFeed(queryClient: QueryClient, page: PostPage) {
  seededAt = Date.now();
  queryClient.setQueryData(postQueries.feed().queryKey, { pages: [page], pageParams: [''] }, { updatedAt: seededAt });
}
