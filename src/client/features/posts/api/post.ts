import { useQuery } from '@tanstack/react-query';
import type { PostResponse, RelatedResponse } from '../../../../shared/api/posts';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';

export const postKey = (id: string) => ['post', id] as const;

export function usePost(id: string) {
  return useQuery({
    queryKey: postKey(id),
    queryFn: () => api<PostResponse>('GET', API.post(id)).then((r) => r.post),
    retry: false,
  });
}

/** The Discover list under a post. */
export function useRelatedPosts(id: string) {
  return useQuery({
    queryKey: [...postKey(id), 'related'],
    queryFn: () => api<RelatedResponse>('GET', API.related(id)).then((r) => r.posts),
  });
}
