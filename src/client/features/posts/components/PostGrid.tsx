import { useMemo } from 'react';
import type { PostCard as PostCardData } from '../../../../shared/api/posts';
import { HOME_SKELETON_CARDS } from '../../../../shared/limits';
import { useColumnCount } from '../../../ui/use-column-count';
import { PostCard } from './PostCard';
import styles from './PostGrid.module.css';

/** How many cards load at once, without waiting for the observer: the top of a phone screen. */
const EAGER_CARDS = 4;

/**
 * Masonry: each post goes to the currently shortest column. Heights are known from the stored
 * dimensions, so the layout is final before any image arrives, and reading order stays
 * left-to-right, newest first.
 */
function toColumns(posts: PostCardData[], count: number): PostCardData[][] {
  const columns: PostCardData[][] = Array.from({ length: count }, () => []);
  const heights = new Array<number>(count).fill(0);
  for (const post of posts) {
    const shortest = heights.indexOf(Math.min(...heights));
    columns[shortest]!.push(post);
    heights[shortest]! += post.image.height / post.image.width;
  }
  return columns;
}

export function PostGrid({ posts, label }: { posts: PostCardData[]; label: string }) {
  const columnCount = useColumnCount();
  const columns = useMemo(() => toColumns(posts, columnCount), [posts, columnCount]);
  const eager = new Set(posts.slice(0, EAGER_CARDS).map((post) => post.id));
  return (
    <section className={styles.grid} aria-label={label}>
      {columns.map((column, index) => (
        <div className={styles.column} key={index}>
          {column.map((post) => (
            <PostCard key={post.id} post={post} eager={eager.has(post.id)} />
          ))}
        </div>
      ))}
    </section>
  );
}

/** The loading state: six placeholder cards of varied heights. */
export function PostGridSkeleton() {
  const columnCount = useColumnCount();
  const ratios = [1.3, 0.8, 1, 1.5, 0.9, 1.2].slice(0, HOME_SKELETON_CARDS);
  const columns = Array.from({ length: columnCount }, (_, c) => ratios.filter((_, i) => i % columnCount === c));
  return (
    <div className={styles.grid} role="status" aria-label="Loading posts" data-testid="feed-skeleton">
      {columns.map((column, c) => (
        <div className={styles.column} key={c}>
          {column.map((ratio, i) => (
            <div key={i} className={styles.skeleton} style={{ aspectRatio: `1 / ${ratio}` }} />
          ))}
        </div>
      ))}
    </div>
  );
}
