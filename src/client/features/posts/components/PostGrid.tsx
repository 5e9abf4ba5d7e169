import { startTransition, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { PostCard as PostCardData } from '../../../../shared/api/posts';
import { EAGER_CARDS } from '../../../../shared/grid-images';
import { useColumnCount } from '../../../ui/use-column-count';
import { PostCard } from './PostCard';
import styles from './PostGrid.module.css';

/**
 * The first pass renders only the cards whose top is within this many column widths of the grid's
 * top: a screen's worth on a phone (2 columns, ~4.4 widths tall) and on a laptop (5 columns, ~3.5).
 * The rest follow a few at a time as the last one rendered nears the screen, so a page of 100
 * cards never holds the main thread while the page loads (issue 28: a post page's Discover grid,
 * rendered in full, was most of its blocking time on a phone). The grid's height counts every
 * card from the start, so nothing moves when they arrive.
 */
const FIRST_PASS_WIDTHS = 5;
/** Cards added per later pass. */
const BATCH = 8;
/** How far ahead of the screen the next cards are rendered: a few passes before they are seen. */
const AHEAD = '800px 0px';

/** Where a card sits: its column, and how much is above it (in column widths, and gaps). */
interface Placement<T extends PostCardData> {
  post: T;
  column: number;
  /** The heights of the cards above, as multiples of the column's width. */
  above: number;
  /** The gaps above: one per card above. */
  gaps: number;
}

/**
 * Masonry: each post goes to the currently shortest column (the leftmost of equals). Heights are
 * known from the stored dimensions, so the layout is final before any image arrives. Column tops
 * only grow, so every post starts no higher than the one before: the posts' own order (newest
 * first) is the visual reading order, row by row, and the cards stay in that order in the page,
 * for screen readers and Tab, positioned into their columns by CSS.
 */
function place<T extends PostCardData>(
  posts: T[],
  count: number,
): { placements: Array<Placement<T>>; heights: number[]; counts: number[] } {
  const heights = new Array<number>(count).fill(0);
  const counts = new Array<number>(count).fill(0);
  const placements = posts.map((post) => {
    const column = heights.indexOf(Math.min(...heights));
    const placement = { post, column, above: heights[column]!, gaps: counts[column]! };
    heights[column]! += post.image.height / post.image.width;
    counts[column]! += 1;
    return placement;
  });
  return { placements, heights, counts };
}

/** A length in the grid's column widths plus gaps (see --column in PostGrid.module.css). */
const length = (widths: number, gaps: number) => `calc(var(--column) * ${widths.toFixed(4)} + var(--gap) * ${gaps})`;

export interface PostGridProps<T extends PostCardData> {
  posts: T[];
  label: string;
  /**
   * A slot over each card's corner, beside its link (a button may not sit inside a link): what a
   * screen that shows the grid lets you do with a post (Save; a board's Make cover and Remove).
   */
  action?: (post: T) => ReactNode;
  /** 'hover': only on a hover-capable desktop, while the card is pointed at or focused; 'always': everywhere. */
  actionShown?: 'hover' | 'always';
}

export function PostGrid<T extends PostCardData>({ posts, label, action, actionShown = 'hover' }: PostGridProps<T>) {
  const columnCount = useColumnCount();
  const { placements, heights, counts } = useMemo(() => place(posts, columnCount), [posts, columnCount]);
  const firstPass = useMemo(() => placements.filter(({ above }) => above < FIRST_PASS_WIDTHS).length, [placements]);
  // How many cards are rendered: the first screen, then more each time the last one nears the screen.
  const [shown, setShown] = useState(firstPass);
  const rendered = Math.min(placements.length, Math.max(shown, firstPass));
  const next = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const marker = next.current;
    if (!marker || rendered >= placements.length) return;
    // A new observer for each count: it reports at once whether the marker is near, so passes
    // follow each other while the end is still within reach.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setShown(rendered + BATCH));
      },
      { rootMargin: AHEAD },
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [rendered, placements.length]);
  const last = placements[rendered - 1];
  const eager = new Set(posts.slice(0, EAGER_CARDS).map((post) => post.id));
  // The tallest column, less the gap under its last card: set inside the grid, whose width the
  // column lengths are made of (on the grid itself, 100cqw would be an outer container's).
  const height = `max(${heights.map((h, c) => length(h, Math.max(0, counts[c]! - 1))).join(', ')})`;
  // A list, not a region: its label stays unique beside a section's own heading (Discover).
  return (
    <div className={styles.grid} style={{ '--columns': columnCount } as CSSProperties}>
      <div role="list" aria-label={label} className={styles.list} style={{ height }}>
        {placements.slice(0, rendered).map(({ post, column, above, gaps }) => (
          <div
            key={post.id}
            role="listitem"
            className={styles.slot}
            style={{ left: `calc((var(--column) + var(--gap)) * ${column})`, top: length(above, gaps) }}
          >
            <PostCard post={post} eager={eager.has(post.id)} />
            {action && (
              <div className={styles.action} data-shown={actionShown}>
                {action(post)}
              </div>
            )}
          </div>
        ))}
      </div>
      {/* Where the last card rendered starts: outside the list, which holds only its items. */}
      {rendered < placements.length && last && (
        <div ref={next} aria-hidden="true" className={styles.next} style={{ top: length(last.above, last.gaps) }} />
      )}
    </div>
  );
}
