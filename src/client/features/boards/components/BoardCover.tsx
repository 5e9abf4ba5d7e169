import type { CSSProperties } from 'react';
import type { ImageSet } from '../../../../shared/api/posts';
import { LockIcon } from '../../../ui/icons';
import styles from './BoardCover.module.css';

/**
 * A board's cover, cropped to its box: the grid variants by srcset (never the full photo), the
 * blurred placeholder under it while it loads; an empty board shows a plain tile.
 */
export function BoardCover({ cover, alt, sizes, className }: { cover: ImageSet | null; alt: string; sizes: string; className?: string }) {
  // Nothing to show: a plain tile, as decoration (the board's name is always beside it).
  if (!cover) return <div className={`${styles.cover} ${styles.none} ${className ?? ''}`} aria-hidden="true" />;
  const style: CSSProperties = { backgroundImage: cover.placeholder ? `url("${cover.placeholder}")` : undefined };
  return (
    <img
      className={`${styles.cover} ${className ?? ''}`}
      src={cover.variants[0]?.src ?? cover.full}
      srcSet={cover.variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ') || undefined}
      sizes={sizes}
      width={cover.width}
      height={cover.height}
      alt={alt}
      loading="lazy"
      decoding="async"
      style={style}
    />
  );
}

/** The padlock and 'Secret' beside a secret board's name. */
export function SecretMark({ label }: { label: string }) {
  return (
    <span className={styles.secret}>
      <LockIcon size={14} />
      {label}
    </span>
  );
}
