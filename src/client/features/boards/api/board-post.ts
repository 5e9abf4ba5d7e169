import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveState } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import type { SaveTarget } from '../../../../shared/api/boards';
import { BOARDS_KEY, saveTargetsKey } from './keys';

export interface BoardPostChange {
  boardId: string;
  postId: string;
  /** true saves the post to the board (PUT), false removes it (DELETE). */
  saved: boolean;
}

/** Saves a post to a board or removes it; both are idempotent on the server. */
export function useSetBoardPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ boardId, postId, saved }: BoardPostChange) => api<SaveState>(saved ? 'PUT' : 'DELETE', API.boardPost(boardId, postId)),
    // The Save button reads the picker's list: it shows the answer at once, the board just used
    // first (the server's order), before the refetch below confirms it.
    onSuccess: (state, { boardId, postId }) =>
      queryClient.setQueryData<SaveTarget[]>(saveTargetsKey(postId), (boards) => {
        if (!boards) return boards;
        const changed = boards.map((board) => (board.id === boardId ? { ...board, hasPost: state.saved, count: state.count } : board));
        if (!state.saved) return changed;
        return [...changed.filter((board) => board.id === boardId), ...changed.filter((board) => board.id !== boardId)];
      }),
    // Counts, covers, the picker's order and the board's posts all changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: BOARDS_KEY }),
  });
}
