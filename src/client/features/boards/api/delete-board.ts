import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { BOARDS_KEY, boardKey } from './keys';

/** DELETE /api/boards/:id (owner): the board, its saves and memberships; the posts stay. */
export function useDeleteBoard(board: { id: string; owner: { username: string }; slug: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('DELETE', API.board(board.id)),
    onSuccess: () => {
      // Not refetched: the page is left for the Boards tab, and its address no longer answers.
      queryClient.removeQueries({ queryKey: boardKey(board.owner.username, board.slug) });
      return queryClient.invalidateQueries({ queryKey: BOARDS_KEY });
    },
  });
}
