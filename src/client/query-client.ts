import { QueryClient } from '@tanstack/react-query';
import { setCurrentUser } from './api/current-user';
import { markLanding } from './api/landing';
import { postQueries, seedFeed } from './features/posts/api/queries';
import { postIdOfPage } from '../shared/post-page';
import { takeFirstView } from './first-view';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Opening a page: the page brings who is signed in (or that nobody is), the home page the
 * feed's first page, a post's page the post (first-view.ts, issue 28), which go straight into
 * the cache. Without them, ask at once, alongside the "who am I" check, instead of after it, and
 * on a post's page beside the screen's code. Fewer round trips before the first photo (the LCP)
 * on a slow phone network.
 */
export function prefetchForLanding(pathname: string, client: QueryClient = queryClient) {
  const firstView = takeFirstView();
  if (firstView) setCurrentUser(client, firstView.me?.user ?? null);
  // Nobody signed in: every screen with posts sends them to sign in.
  if (firstView?.me === null) return;
  const postId = postIdOfPage(pathname);
  if (postId !== undefined) {
    const { queryKey } = postQueries.detail(postId);
    markLanding(queryKey);
    if (firstView?.post?.post.id === postId) client.setQueryData(queryKey, firstView.post.post);
    else void client.prefetchQuery(postQueries.detail(postId));
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
