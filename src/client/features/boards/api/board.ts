import { useQuery } from '@tanstack/react-query';
import type { BoardResponse } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { boardKey } from './keys';

/** A board by its address; a 404 (missing or not for this viewer) is not retried. */
export function useBoard(username: string, slug: string) {
  return useQuery({
    queryKey: boardKey(username, slug),
    queryFn: () => api<BoardResponse>('GET', API.userBoard(username, slug)).then((r) => r.board),
    retry: false,
  });
}
