import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import type { PostCard as PostCardData } from '../../../../shared/api/posts';
import { paths } from '../../../paths';
import { GRID_IMAGE_SIZES } from '../../../ui/use-column-count';
import styles from './PostGrid.module.css';

/**
 * A grid card: the picture only, linking to the post. Grid variants only (never the full-size
 * photo), with width/height so nothing shifts, and the blurred placeholder until it loads.
 */
export function PostCard({ post, eager = false }: { post: PostCardData; eager?: boolean }) {
  const { image } = post;
  const style: CSSProperties = {
    aspectRatio: `${image.width} / ${image.height}`,
    backgroundImage: image.placeholder ? `url("${image.placeholder}")` : undefined,
  };
  return (
    <Link to={paths.post(post.id)} className={styles.card}>
      <img
        className={styles.image}
        src={image.variants[0]?.src}
        srcSet={image.variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ')}
        sizes={GRID_IMAGE_SIZES}
        width={image.width}
        height={image.height}
        alt={post.description || 'Photo'}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        style={style}
      />
    </Link>
  );
}
