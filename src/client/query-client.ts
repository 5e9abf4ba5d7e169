import { QueryClient } from '@tanstack/react-query';
import { setCurrentUser } from './api/current-user';
import { markLanding } from './api/landing';
import { postQueries, seedFeed } from './features/posts/api/queries';
import { takeFirstView } from './first-view';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Opening a page: a signed-in viewer's page brings who they are, and the home page the feed's
 * first page (first-view.ts, issue 28), which go straight into the cache. Without the feed, ask
 * for it at once, alongside the "who am I" check, instead of after it; on a post's page, ask for
 * the post beside the screen's code. Fewer round trips before the first photo (the LCP) on a
 * slow phone network.
 */
export function prefetchForLanding(pathname: string, client: QueryClient = queryClient) {
  const firstView = takeFirstView();
  if (firstView) setCurrentUser(client, firstView.me.user);
  // A post's page: its post at once, beside the screen's code rather than after it.
  const postId = postIdOf(pathname);
  if (postId !== undefined) {
    markLanding(postQueries.detail(postId).queryKey);
    void client.prefetchQuery(postQueries.detail(postId));
    return;
  }
  if (pathname !== '/') return;
  if (firstView?.feed) {
    seedFeed(client, firstView.feed);
  } else {
    markLanding(postQueries.feed().queryKey);
    void client.prefetchInfiniteQuery(postQueries.feed());
  }
}

/** The id in /post/:id as the route reads it; undefined for any other path (or a malformed one). */
function postIdOf(pathname: string): string | undefined {
  const match = /^\/post\/([^/]+)\/*$/i.exec(pathname);
  try {
    return match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    return undefined;
  }
}
