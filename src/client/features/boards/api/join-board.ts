import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardMembers } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { boardQueries } from './queries';

/** POST /api/boards/:id/join: an invitee becomes a collaborator. */
export function useJoinBoard(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<BoardMembers>('POST', API.boardJoin(boardId)).then((r) => r.members),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
