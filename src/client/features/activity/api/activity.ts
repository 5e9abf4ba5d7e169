import { infiniteQueryOptions, useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ActivityGroup, ActivityPage } from '../../../../shared/api/activity';
import { cursorQuery } from '../../../api/cursor';
import { call } from '../../../api/http';
import { unreadCountQuery } from '../../../api/unread-count';

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
 * After Join or Decline on an invitation's row (the boards' own mutations send it, and the
 * server reads the invitation with a join): joining keeps the row, read, with the board;
 * declining removes it. The bell asks again.
 */
export function useInviteAnswered(group: ActivityGroup) {
  const queryClient = useQueryClient();
  return (answer: 'join' | 'decline') => {
    editGroups(queryClient, (groups) =>
      answer === 'join'
        ? groups.map((g) => (g.id === group.id ? { ...g, invite: 'joined', unread: false } : g))
        : groups.filter((g) => g.id !== group.id),
    );
    void queryClient.invalidateQueries({ queryKey: unreadCountQuery().queryKey });
  };
}
