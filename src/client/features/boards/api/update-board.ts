import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateBoardBody } from '../../../../shared/api/boards';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

/** PATCH /api/boards/:id (owner): only the fields sent change; answers the board as it is now. */
export function useUpdateBoard(board: { id: string; slug: string; owner: { username: string } }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBoardBody) => call('updateBoard', { params: { id: board.id }, body }).then((r) => r.board),
    onSuccess: (updated) => {
      // The answer is the board at its (maybe new) address: a renamed board's page shows at once.
      queryClient.setQueryData(boardQueries.board(updated.owner.username, updated.slug).queryKey, updated);
      // After a rename the old address answers 404: its queries are left alone (the page moves
      // away from them) rather than refetched into the not-found page under the open dialog.
      const old = boardQueries.board(board.owner.username, board.slug).queryKey;
      const renamed = updated.slug !== board.slug;
      void queryClient.invalidateQueries({
        queryKey: boardQueries.all(),
        predicate: (query) => !renamed || !old.every((part, index) => query.queryKey[index] === part),
      });
    },
  });
}
