import { QueryClient } from '@tanstack/react-query';
import { setCurrentUser } from './api/current-user';
import { markLanding } from './api/landing';
import { postQueries, seedFeed } from './features/posts/api/queries';
import { takeFirstView } from './first-view';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Opening the home page: a signed-in viewer's page brings who they are and the feed's first page
 * (first-view.ts, issue 28), which go straight into the cache. Without them, ask for the feed at
 * once, alongside the "who am I" check, instead of after it. Either way, fewer round trips before
 * the first photos (the LCP) on a slow phone network.
 */
export function prefetchForLanding(pathname: string, client: QueryClient = queryClient) {
  const firstView = takeFirstView();
  // A post's page: its post at once, beside the screen's code rather than after it.
  const post = /^\/post\/([^/]+)\/?$/i.exec(pathname);
  if (post) {
    const { queryKey } = postQueries.detail(decodeURIComponent(post[1]!));
    markLanding(queryKey);
    void client.prefetchQuery(postQueries.detail(decodeURIComponent(post[1]!)));
    return;
  }
  if (pathname !== '/') return;
  if (firstView) {
    setCurrentUser(client, firstView.me.user);
    seedFeed(client, firstView.feed);
  } else {
    markLanding(postQueries.feed().queryKey);
    void client.prefetchInfiniteQuery(postQueries.feed());
  }
}
