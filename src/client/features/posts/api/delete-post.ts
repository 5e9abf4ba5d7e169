import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { FEED_KEY } from './feed';
import { postKey } from './post';

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', API.post(id)),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: postKey(id) });
      return queryClient.invalidateQueries({ queryKey: FEED_KEY });
    },
  });
}
