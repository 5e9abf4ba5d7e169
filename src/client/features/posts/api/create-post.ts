import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostResponse } from '../../../../shared/api/posts';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { FEED_KEY } from './feed';

export interface CreatePostInput {
  photo: Blob;
  fileName: string;
  description: string;
  link: string;
}

export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ photo, fileName, description, link }: CreatePostInput) => {
      const form = new FormData();
      form.set('description', description);
      form.set('link', link);
      form.set('photo', photo, fileName);
      return api<PostResponse>('POST', API.posts, form).then((r) => r.post);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FEED_KEY }),
  });
}
