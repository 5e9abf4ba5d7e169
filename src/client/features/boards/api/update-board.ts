import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoardResponse, UpdateBoardBody } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { BOARDS_KEY } from './keys';

/** PATCH /api/boards/:id (owner): only the fields sent change; answers the board as it is now. */
export function useUpdateBoard(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBoardBody) => api<BoardResponse>('PATCH', API.board(id), body).then((r) => r.board),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOARDS_KEY }),
  });
}
