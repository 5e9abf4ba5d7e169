import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';

/**
 * The boards' queries, under one root: a save, an edit or a membership change touches tiles,
 * pages and the picker at once, so every boards mutation refreshes the whole root.
 */
export const boardQueries = {
  all: () => ['boards'] as const,
  /**
   * The Save picker's boards for one post (GET /api/me/boards?post=): the viewer's own and joined
   * boards, most recently used first, each with whether the post is on it. Signed in only.
   */
  saveTargets: (postId: string) =>
    queryOptions({
      queryKey: [...boardQueries.all(), 'save-targets', postId],
      queryFn: () => call('saveTargets', { query: { post: postId } }).then((r) => r.boards),
    }),
  /** Every profile's Boards tab. */
  userBoardLists: () => [...boardQueries.all(), 'user'] as const,
  /** A profile's Boards tab: the boards they own or joined, most recently saved to first, 24 at a time. */
  userBoards: (username: string) =>
    infiniteQueryOptions({
      queryKey: [...boardQueries.userBoardLists(), username],
      queryFn: ({ pageParam }) => call('userBoards', { params: { username }, query: cursorQuery(pageParam) }),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: false,
    }),
  /** A board by its address; a 404 (missing or not for this viewer) is not retried. */
  board: (username: string, slug: string) =>
    queryOptions({
      queryKey: [...boardQueries.all(), 'board', username, slug],
      queryFn: () => call('userBoard', { params: { username, slug } }).then((r) => r.board),
      retry: false,
    }),
  /** A board's posts, newest saved first, 50 at a time. */
  posts: (username: string, slug: string) =>
    infiniteQueryOptions({
      queryKey: [...boardQueries.board(username, slug).queryKey, 'posts'],
      queryFn: ({ pageParam }) => call('userBoardPosts', { params: { username, slug }, query: cursorQuery(pageParam) }),
      initialPageParam: '',
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      retry: false,
    }),
};
