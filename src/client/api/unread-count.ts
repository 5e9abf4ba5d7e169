import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './http';

/** How often an open page asks again while it is visible: nothing tells a tab that something happened. */
const REFRESH_MS = 60_000;

/**
 * How many of the signed-in user's notifications are unread (issue 30): the bell's badge, on
 * every screen, so here rather than in the activity feature. Under the activity's root key, so
 * what changes the activity (marking read, answering an invitation) can refresh both.
 */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: ['activity', 'unread'] as const,
    queryFn: () => call('unreadCount').then((answer) => answer.unread),
  });

/**
 * The count, read again on every screen's mount (a page view: a query is stale at once, React
 * Query's default), when the window regains focus,
 * and every minute while the page is visible (react-query pauses intervals in a hidden tab).
 */
export function useUnreadCount(signedIn: boolean) {
  return useQuery({
    ...unreadCountQuery(),
    enabled: signedIn,
    refetchOnWindowFocus: true,
    refetchInterval: REFRESH_MS,
    // A failed count leaves the bell without a badge; the next minute asks again.
    retry: false,
  });
}
