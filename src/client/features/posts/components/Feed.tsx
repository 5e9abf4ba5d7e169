import { COPY } from '../../../../shared/copy';
import { ERRORS } from '../../../../shared/errors';
import { Spinner } from '../../../ui/Spinner';
import { useOnVisible } from '../../../ui/use-on-visible';
import { useFeed } from '../api/feed';
import styles from './Feed.module.css';
import { PostGrid, PostGridSkeleton } from './PostGrid';

/** The Home tab: everyone else's posts, newest first, more as you scroll. */
export function Feed() {
  const feed = useFeed();
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!feed.isFetchingNextPage) void feed.fetchNextPage();
  }, feed.hasNextPage);

  if (feed.isPending) return <PostGridSkeleton />;
  if (feed.isError) return <p className={styles.message}>{ERRORS.GENERIC}</p>;
  const posts = feed.data.pages.flatMap((page) => page.posts);
  if (posts.length === 0) return <p className={styles.message}>{COPY.feed.empty}</p>;
  return (
    <>
      <PostGrid posts={posts} label="Posts" />
      <div ref={sentinel} />
      {feed.isFetchingNextPage && <Spinner label="Loading more posts" />}
    </>
  );
}
