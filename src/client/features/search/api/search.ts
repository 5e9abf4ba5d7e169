import { useQuery } from '@tanstack/react-query';
import type { PostSearchResponse, UserSearchResponse } from '../../../../shared/api/search';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

export function useUserSearch(query: string) {
  return useQuery({
    queryKey: ['search', 'users', query],
    queryFn: () => api<UserSearchResponse>('GET', API.searchUsers(query)).then((r) => r.users),
    retry: false,
  });
}

export function usePostSearch(query: string) {
  return useQuery({
    queryKey: ['search', 'posts', query],
    queryFn: () => api<PostSearchResponse>('GET', API.searchPosts(query)).then((r) => r.posts),
    retry: false,
  });
}
