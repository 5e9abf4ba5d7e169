import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { BoardList } from '../../../../shared/api/boards';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

/** DELETE /api/boards/:id (owner): the board, its saves and memberships; the posts stay. */
export function useDeleteBoard(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('deleteBoard', { params: { id } }),
    onSuccess: () => {
      // The Boards tab the owner goes to next shows its cached tiles first: without this one.
      queryClient.setQueriesData<InfiniteData<BoardList>>({ queryKey: boardQueries.userBoardLists() }, (data) =>
        data ? { ...data, pages: data.pages.map((page) => ({ ...page, boards: page.boards.filter((board) => board.id !== id) })) } : data,
      );
      // Marked stale, not refetched now: the page is being left, and a refetch of this board
      // would only answer 404 while it is still on screen.
      return queryClient.invalidateQueries({ queryKey: boardQueries.all(), refetchType: 'none' });
    },
  });
}
