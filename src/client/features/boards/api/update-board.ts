import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardResponse, UpdateBoardBody } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { BOARDS_KEY, boardKey } from './keys';

/** PATCH /api/boards/:id (owner): only the fields sent change; answers the board as it is now. */
export function useUpdateBoard(board: { id: string; slug: string; owner: { username: string } }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBoardBody) => api<BoardResponse>('PATCH', API.board(board.id), body).then((r) => r.board),
    onSuccess: (updated) => {
      // The answer is the board at its (maybe new) address: a renamed board's page shows at once.
      queryClient.setQueryData(boardKey(updated.owner.username, updated.slug), updated);
      // After a rename the old address answers 404: its queries are left alone (the page moves
      // away from them) rather than refetched into the not-found page under the open dialog.
      const old = boardKey(board.owner.username, board.slug);
      const renamed = updated.slug !== board.slug;
      void queryClient.invalidateQueries({
        queryKey: BOARDS_KEY,
        predicate: (query) => !renamed || !old.every((part, index) => query.queryKey[index] === part),
      });
    },
  });
}
