import type { ReactNode } from 'react';
import { HOME_SKELETON_CARDS } from '../../shared/limits';
import styles from './Skeleton.module.css';
import { useColumnCount } from './use-column-count';

/**
 * The one loading language: grey placeholders shaped like what is coming (cards in a masonry, a
 * profile header, a post, list rows), so the page keeps its shape and nothing jumps when the
 * content arrives. The shimmer stops for people who ask for reduced motion.
 */
interface SkeletonProps {
  /** What screen readers hear, once, politely ("Loading", or a spec message like 'Loading profile!'). */
  label?: string;
  /** Show the label above the placeholders too (the spec's profile loading messages). */
  showLabel?: boolean;
  testId?: string;
  children: ReactNode;
}

/** The wrapper: one polite status for the whole placeholder; the shapes inside are hidden from screen readers. */
export function Skeleton({ label = 'Loading', showLabel = false, testId, children }: SkeletonProps) {
  return (
    <div role="status" aria-live="polite" className={styles.skeleton} data-testid={testId}>
      <span className={showLabel ? styles.label : 'visually-hidden'}>{label}</span>
      {children}
    </div>
  );
}

/** Varied card heights, like real photos (height / width). */
const RATIOS = [1.3, 0.8, 1, 1.5, 0.9, 1.2];

/**
 * Placeholder cards in masonry columns (the home feed's six, spec section 2), dealt left to right
 * as the feed deals its posts. Direct children: one div per column, one div per card.
 */
export function SkeletonCards({ count = HOME_SKELETON_CARDS, testId }: { count?: number; testId?: string }) {
  const columnCount = useColumnCount();
  const ratios = Array.from({ length: count }, (_, i) => RATIOS[i % RATIOS.length]!);
  const columns = Array.from({ length: columnCount }, (_, c) => ratios.filter((_, i) => i % columnCount === c));
  return (
    <div className={styles.grid} aria-hidden="true" data-testid={testId}>
      {columns.map((column, c) => (
        <div className={styles.column} key={c}>
          {column.map((ratio, i) => (
            <div key={i} className={`${styles.block} ${styles.card}`} style={{ aspectRatio: `1 / ${ratio}` }} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** A profile's header: picture, handle, counts, a button. */
export function SkeletonProfileHeader() {
  return (
    <div className={styles.profile} aria-hidden="true">
      <div className={`${styles.block} ${styles.avatar}`} style={{ width: 96, height: 96 }} />
      <div className={`${styles.block} ${styles.line}`} style={{ width: 160, height: 26 }} />
      <div className={`${styles.block} ${styles.line}`} style={{ width: 200 }} />
      <div className={`${styles.block} ${styles.button}`} />
    </div>
  );
}

/** A post page: the photo, then its author and description. */
export function SkeletonPost() {
  return (
    <div className={styles.post} aria-hidden="true">
      <div className={`${styles.block} ${styles.photo}`} />
      <div className={styles.info}>
        <div className={styles.author}>
          <div className={`${styles.block} ${styles.avatar}`} style={{ width: 44, height: 44 }} />
          <div className={`${styles.block} ${styles.line}`} style={{ width: 140 }} />
        </div>
        <div className={`${styles.block} ${styles.line}`} />
        <div className={`${styles.block} ${styles.line}`} style={{ width: '70%' }} />
      </div>
    </div>
  );
}

/** List rows: a picture and two lines each (followers, following, people in search). */
export function SkeletonRows({ count = 4 }: { count?: number }) {
  return (
    <ul className={styles.rows} aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className={styles.row}>
          <div className={`${styles.block} ${styles.avatar}`} style={{ width: 48, height: 48 }} />
          <div className={styles.lines}>
            <div className={`${styles.block} ${styles.line}`} style={{ width: `${50 + ((i * 17) % 30)}%` }} />
            <div className={`${styles.block} ${styles.line}`} style={{ width: '30%', height: 12 }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
