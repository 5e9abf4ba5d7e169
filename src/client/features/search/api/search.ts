import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { PostSearchResponse, UserSearchResponse } from '../../../../shared/api/search';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

/** The search feature's queries: people and posts for each query typed. */
export const searchQueries = {
  all: () => ['search'] as const,
  users: (query: string) =>
    queryOptions({
      queryKey: [...searchQueries.all(), 'users', query],
      queryFn: () => api<UserSearchResponse>('GET', API.searchUsers(query)).then((r) => r.users),
      retry: false,
    }),
  /** One page (the search answers its best matches at once), in the shape of the infinite grids. */
  posts: (query: string) =>
    infiniteQueryOptions({
      queryKey: [...searchQueries.all(), 'posts', query],
      queryFn: () => api<PostSearchResponse>('GET', API.searchPosts(query)),
      initialPageParam: '',
      getNextPageParam: () => undefined,
      retry: false,
    }),
};
