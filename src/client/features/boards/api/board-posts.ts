import { useInfiniteQuery } from '@tanstack/react-query';
import type { BoardPostPage } from '../../../../shared/api/boards';
import { API } from '../../../../shared/api/paths';
import { api } from '../../../api/http';
import { boardKey, withCursor } from './keys';

/** A board's posts, newest saved first, 50 at a time. */
export function useBoardPosts(username: string, slug: string) {
  return useInfiniteQuery({
    queryKey: [...boardKey(username, slug), 'posts'],
    queryFn: ({ pageParam }) => api<BoardPostPage>('GET', withCursor(API.userBoardPosts(username, slug), pageParam)),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: false,
  });
}
