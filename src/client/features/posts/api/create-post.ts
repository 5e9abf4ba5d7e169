import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { postQueries } from './queries';

export interface CreatePostInput {
  photo: Blob;
  fileName: string;
  description: string;
  link: string;
  /** The upload form's key (lib/form-key.ts): sent again, the server answers with the first post. */
  idempotencyKey: string;
}

export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ photo, fileName, description, link, idempotencyKey }: CreatePostInput) => {
      const form = new FormData();
      form.set('idempotencyKey', idempotencyKey);
      form.set('description', description);
      form.set('link', link);
      form.set('photo', photo, fileName);
      return call('createPost', { body: form }).then((r) => r.post);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: postQueries.feed().queryKey }),
  });
}
