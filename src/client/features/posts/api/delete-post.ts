import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { postQueries } from './queries';

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', API.post(id)),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: postQueries.detail(id).queryKey });
      queryClient.removeQueries({ queryKey: postQueries.related(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: postQueries.feed().queryKey });
    },
  });
}
