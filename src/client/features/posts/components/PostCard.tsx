import type { CSSProperties } from 'react';
import { Link } from '../../../lib/router';
import type { PostCard as PostCardData } from '../../../../shared/api/posts';
import { paths } from '../../../paths';
import { GRID_IMAGE_SIZES } from '../../../ui/use-column-count';
import { useNearViewport } from '../../../ui/use-near-viewport';
import styles from './PostGrid.module.css';

/**
 * Until a card nears the screen, its image is an empty one of the photo's own shape (no request),
 * over the tiny blurred placeholder as its background. The placeholder itself as the image would
 * be a thumbnail of a slightly different shape stretched to the card (Lighthouse's
 * image-aspect-ratio, issue 28).
 */
const blank = ({ width, height }: { width: number; height: number }) =>
  `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${width} ${height}'%3E%3C/svg%3E`;

/**
 * A grid card: the picture only, linking to the post. Grid variants only (never the full-size
 * photo), with width/height so nothing shifts. Until the card nears the screen its image is the
 * tiny blurred placeholder (no request); then the browser picks a variant from srcset.
 */
export function PostCard({ post, eager = false }: { post: PostCardData; eager?: boolean }) {
  const { image } = post;
  const [ref, near] = useNearViewport<HTMLImageElement>(eager);
  const style: CSSProperties = {
    aspectRatio: `${image.width} / ${image.height}`,
    backgroundImage: image.placeholder ? `url("${image.placeholder}")` : undefined,
  };
  return (
    <Link to={paths.post(post.id)} className={styles.card}>
      <img
        ref={ref}
        className={styles.image}
        src={near ? image.variants[0]?.src : blank(image)}
        srcSet={near ? image.variants.map((variant) => `${variant.src} ${variant.width}w`).join(', ') : undefined}
        sizes={near ? GRID_IMAGE_SIZES : undefined}
        width={image.width}
        height={image.height}
        alt={post.description || 'Photo'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        style={style}
      />
    </Link>
  );
}
