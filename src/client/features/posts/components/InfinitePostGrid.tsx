import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PostCard } from '../../../../shared/api/posts';
import { ERRORS } from '../../../../shared/errors';
import { Skeleton, SkeletonCards } from '../../../ui/Skeleton';
import { useOnVisible } from '../../../ui/use-on-visible';
import styles from './InfinitePostGrid.module.css';
import { PostGrid, type PostGridProps } from './PostGrid';

interface InfinitePostGridProps<T extends PostCard> extends Omit<PostGridProps<T>, 'posts'> {
  /** A list of posts a page at a time (the feed, a profile's, a board's, a search's). */
  query: UseInfiniteQueryResult<InfiniteData<{ posts: T[] }>>;
  /** What an empty list shows instead: the screen's line and its way on. */
  empty: ReactNode;
  /** The placeholder until the first page: by default cards. The search page shows its own. */
  loading?: ReactNode;
  /** What a first page that failed shows: by default the generic error. Search shows nothing (spec section 8). */
  failed?: ReactNode;
  /** Above the grid, once there are posts (a board's Organize tools). */
  header?: ReactNode;
}

const defaultLoading = (
  <Skeleton label="Loading posts">
    <SkeletonCards />
  </Skeleton>
);

/**
 * The one infinite grid of posts: placeholder cards, the empty state, the masonry, and the next
 * page asked for as the end nears, with placeholder cards while it comes.
 */
export function InfinitePostGrid<T extends PostCard>({
  query,
  empty,
  loading = defaultLoading,
  failed = <p className={styles.message}>{ERRORS.GENERIC}</p>,
  header,
  ...grid
}: InfinitePostGridProps<T>) {
  const { data, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const sentinel = useOnVisible<HTMLDivElement>(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, hasNextPage);

  if (isPending) return loading;
  if (!data) return failed;
  const posts = data.pages.flatMap((page) => page.posts);
  if (posts.length === 0) return empty;
  return (
    <>
      {header}
      <PostGrid posts={posts} {...grid} />
      <div ref={sentinel} />
      {isFetchingNextPage && (
        <Skeleton label="Loading more posts">
          <SkeletonCards count={2} />
        </Skeleton>
      )}
    </>
  );
}
