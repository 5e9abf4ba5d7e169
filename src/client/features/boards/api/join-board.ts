import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

/** POST /api/boards/:id/join: an invitee becomes a collaborator. */
export function useJoinBoard(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('joinBoard', { params: { id: boardId } }).then((r) => r.members),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
