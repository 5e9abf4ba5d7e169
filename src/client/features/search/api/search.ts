import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/http';

/** The search feature's queries: people and posts for each query typed. */
export const searchQueries = {
  all: () => ['search'] as const,
  users: (query: string) =>
    queryOptions({
      queryKey: [...searchQueries.all(), 'users', query],
      queryFn: () => call('searchUsers', { query: { q: query } }).then((r) => r.users),
      retry: false,
    }),
  /** One page (the search answers its best matches at once), in the shape of the infinite grids. */
  posts: (query: string) =>
    infiniteQueryOptions({
      queryKey: [...searchQueries.all(), 'posts', query],
      queryFn: () => call('searchPosts', { query: { q: query } }),
      initialPageParam: '',
      getNextPageParam: () => undefined,
      retry: false,
    }),
};
