import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateBoardBody } from '../../../../shared/api/boards';
import { call } from '../../../api/http';
import { boardQueries } from './queries';

/** POST /api/boards: a new board of the signed-in user's. */
export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBoardBody) => call('createBoard', { body }).then((r) => r.board),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
