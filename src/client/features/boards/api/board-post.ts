import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveState, SaveTarget } from '../../../../shared/api/boards';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

export interface BoardPostChange {
  boardId: string;
  postId: string;
  /** true saves the post to the board (PUT), false removes it (DELETE). */
  saved: boolean;
}

/** The picker's list with the post on (or off) one board: that board first once saved to (the server's order). */
function withSave(boards: SaveTarget[], boardId: string, { saved, count }: SaveState): SaveTarget[] {
  const changed = boards.map((board) => (board.id === boardId ? { ...board, hasPost: saved, count } : board));
  if (!saved) return changed;
  return [...changed.filter((board) => board.id === boardId), ...changed.filter((board) => board.id !== boardId)];
}

/**
 * Saves a post to a board or removes it; both are idempotent on the server. The Save button and
 * the picker read the picker's list, so it changes at once (optimistically), goes back as it was
 * if the request fails, and is read again either way with every other board query.
 */
export function useSetBoardPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ boardId, postId, saved }: BoardPostChange) =>
      call(saved ? 'savePost' : 'unsavePost', { params: { id: boardId, postId } }),
    onMutate: async ({ boardId, postId, saved }) => {
      const { queryKey } = boardQueries.saveTargets(postId);
      // A read already on its way would land over the guess with the old state.
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, (boards) => {
        const board = boards?.find((target) => target.id === boardId);
        if (!boards || !board || board.hasPost === saved) return boards;
        return withSave(boards, boardId, { saved, count: board.count + (saved ? 1 : -1) });
      });
      return { before };
    },
    onError: (_, { postId }, context) => queryClient.setQueryData(boardQueries.saveTargets(postId).queryKey, context?.before),
    // The server's count, until the refetch below confirms the rest.
    onSuccess: (state, { boardId, postId }) =>
      queryClient.setQueryData(boardQueries.saveTargets(postId).queryKey, (boards) => boards && withSave(boards, boardId, state)),
    // Counts, covers, the picker's order and the board's posts all changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
