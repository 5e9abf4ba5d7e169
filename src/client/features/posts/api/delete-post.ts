import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { postQueries } from './queries';

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('deletePost', { params: { id } }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: postQueries.detail(id).queryKey });
      queryClient.removeQueries({ queryKey: postQueries.related(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: postQueries.feed().queryKey });
    },
  });
}
