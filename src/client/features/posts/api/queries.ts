import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { PostPage, PostResponse, RelatedResponse } from '../../../../shared/api/posts';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

/** A list's address with the cursor of the page after the last one loaded. */
export const withCursor = (path: string, cursor: string) => (cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);

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
      queryFn: ({ pageParam }) => api<PostPage>('GET', withCursor(API.posts, pageParam)),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
  /** Every post page's post (not its Discover list). */
  details: () => [...postQueries.all(), 'detail'] as const,
  detail: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.details(), id],
      queryFn: () => api<PostResponse>('GET', API.post(id)).then((r) => r.post),
      retry: false,
    }),
  /** The Discover list under a post. */
  related: (id: string) =>
    queryOptions({
      queryKey: [...postQueries.all(), 'related', id],
      queryFn: () => api<RelatedResponse>('GET', API.related(id)).then((r) => r.posts),
    }),
};
