import type { ReactNode } from 'react';
import type { PostCard } from '../../../../shared/api/posts';
import { COPY } from '../../../../shared/copy';
import { ERRORS } from '../../../../shared/errors';
import { paths } from '../../../paths';
import { Skeleton, SkeletonCards } from '../../../ui/Skeleton';
import { useOnVisible } from '../../../ui/use-on-visible';
import { useFeed } from '../api/feed';
import { EmptyState } from '../../errors';
import styles from './Feed.module.css';
import { PostGrid } from './PostGrid';

/**
 * The Home tab: everyone else's posts, newest first, more as you scroll. `cardAction` is the
 * grid's card slot (PostGrid), filled by the screen that shows the feed.
 */
export function Feed({ cardAction }: { cardAction?: (post: PostCard) => ReactNode }) {
  const feed = useFeed();
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!feed.isFetchingNextPage) void feed.fetchNextPage();
  }, feed.hasNextPage);

  if (feed.isPending) {
    return (
      <Skeleton label="Loading posts">
        <SkeletonCards testId="feed-skeleton" />
      </Skeleton>
    );
  }
  if (feed.isError) return <p className={styles.message}>{ERRORS.GENERIC}</p>;
  const posts = feed.data.pages.flatMap((page) => page.posts);
  // The spec's line, and the way to change it.
  if (posts.length === 0) {
    return <EmptyState message={COPY.feed.empty} action={{ to: paths.upload, label: COPY.upload.title, primary: true }} />;
  }
  return (
    <>
      <PostGrid posts={posts} label="Posts" action={cardAction} />
      <div ref={sentinel} />
      {feed.isFetchingNextPage && (
        <Skeleton label="Loading more posts">
          <SkeletonCards count={2} />
        </Skeleton>
      )}
    </>
  );
}
