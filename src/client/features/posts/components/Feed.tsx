import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PostCard } from '../../../../shared/api/posts';
import * as COPY from '../../../../shared/copy';
import { paths } from '../../../paths';
import { Skeleton, SkeletonCards } from '../../../ui/Skeleton';
import { postQueries } from '../api/queries';
import { EmptyState } from '../../errors';
import { InfinitePostGrid } from './InfinitePostGrid';

/**
 * The Home tab: everyone else's posts, newest first, more as you scroll. `cardAction` is the
 * grid's card slot (PostGrid), filled by the screen that shows the feed.
 */
export function Feed({ cardAction }: { cardAction?: (post: PostCard) => ReactNode }) {
  const feed = useInfiniteQuery(postQueries.feed());
  return (
    <InfinitePostGrid
      query={feed}
      label="Posts"
      action={cardAction}
      loading={
        <Skeleton label="Loading posts">
          <SkeletonCards testId="feed-skeleton" />
        </Skeleton>
      }
      // The spec's line, and the way to change it.
      empty={<EmptyState message={COPY.feed.empty} action={{ to: paths.upload, label: COPY.upload.title, primary: true }} />}
    />
  );
}
