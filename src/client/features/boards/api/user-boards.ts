import { useInfiniteQuery } from '@tanstack/react-query';
import type { BoardList } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { userBoardsKey, withCursor } from './keys';

/** A profile's Boards tab: the boards they own or joined, most recently saved to first, 24 at a time. */
export function useUserBoards(username: string) {
  return useInfiniteQuery({
    queryKey: userBoardsKey(username),
    queryFn: ({ pageParam }) => api<BoardList>('GET', withCursor(API.userBoards(username), pageParam)),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });
}
