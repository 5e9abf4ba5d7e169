import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardResponse, CreateBoardBody } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { boardQueries } from './queries';

/** POST /api/boards: a new board of the signed-in user's. */
export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBoardBody) => api<BoardResponse>('POST', API.boards, body).then((r) => r.board),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardQueries.all() }),
  });
}
