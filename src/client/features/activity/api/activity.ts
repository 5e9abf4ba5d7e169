import { infiniteQueryOptions, useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ActivityGroup, ActivityPage } from '../../../../shared/api/activity';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';
import { unreadCountQuery } from '../../../api/unread-count';
import { boardQueries } from '../../boards';

/** /activity's groups, newest first, 20 a page (issue 30). */
export const activityQuery = () =>
  infiniteQueryOptions({
    queryKey: ['activity', 'groups'] as const,
    queryFn: ({ pageParam }) => call('activity', { query: cursorQuery(pageParam) }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

type Pages = InfiniteData<ActivityPage, string>;

/** Changes the loaded groups in place: each page keeps its cursor, so the next page is still the one after. */
function editGroups(queryClient: QueryClient, edit: (groups: ActivityGroup[]) => ActivityGroup[]) {
  queryClient.setQueryData<Pages>(activityQuery().queryKey, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, groups: edit(page.groups) })) } : data,
  );
}

/**
 * Marks one group (opening its row) or every group (Mark all as read) as read. The rows lose
 * their marker at once; the bell shows the count the server answers with. Not tied to the
 * screen: opening a row leaves /activity while the request is on its way.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (group?: string) => call('markRead', { body: group === undefined ? {} : { group } }).then((answer) => answer.unread),
    onMutate: async (group) => {
      await queryClient.cancelQueries({ queryKey: activityQuery().queryKey });
      editGroups(queryClient, (groups) => groups.map((g) => (group === undefined || g.id === group ? { ...g, unread: false } : g)));
      if (group === undefined) queryClient.setQueryData(unreadCountQuery().queryKey, 0);
    },
    onSuccess: (unread) => queryClient.setQueryData(unreadCountQuery().queryKey, unread),
    // What is on the screen is then the server's again.
    onError: () => queryClient.invalidateQueries({ queryKey: ['activity'] }),
  });
}

/**
 * Join or Decline on an invitation's row: joining keeps the row (You joined, and the board), and
 * an invitation answered is read; declining removes the row. Boards and the bell change with either.
 */
export function useAnswerInvite(group: ActivityGroup, username: string) {
  const queryClient = useQueryClient();
  const boardId = group.board?.id ?? '';
  return useMutation({
    mutationFn: async (answer: 'join' | 'decline') => {
      if (answer === 'decline') {
        await call('removeMember', { params: { id: boardId, username } });
        return;
      }
      await call('joinBoard', { params: { id: boardId } });
      if (group.unread) await call('markRead', { body: { group: group.id } });
    },
    onSuccess: (_, answer) => {
      editGroups(queryClient, (groups) =>
        answer === 'join'
          ? groups.map((g) => (g.id === group.id ? { ...g, invite: 'joined', unread: false } : g))
          : groups.filter((g) => g.id !== group.id),
      );
      void queryClient.invalidateQueries({ queryKey: unreadCountQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: boardQueries.all() });
    },
  });
}
