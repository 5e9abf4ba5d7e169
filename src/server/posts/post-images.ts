import { randomBytes } from 'node:crypto';
import type { ImageSet } from '../../shared/api/posts.js';
import type { ProcessedImage } from '../images/image-pipeline.js';
import { GRID_WIDTHS } from '../images/image-pipeline.js';
import { putAll, type FileToStore } from '../storage/batch.js';
import type { Storage } from '../storage/storage.js';

/**
 * Where a post's files live. One base key per upload ("images/<post>/<version>"); the
 * version makes every URL unique to its content, so it can be cached as immutable.
 */
export function newImageKey(postId: string): string {
  return `images/${postId}/${randomBytes(4).toString('hex')}`;
}

/** The full-size JPEG, what the post page shows and Download My Data includes. */
export const fullImageKey = (base: string) => `${base}-full.jpg`;
const variantKey = (base: string, width: number) => `${base}-${width}.webp`;

export function imageFileKeys(base: string): string[] {
  return [fullImageKey(base), ...GRID_WIDTHS.map((width) => variantKey(base, width))];
}

/** The files of a processed image, under one base key. */
export function imageFiles(base: string, image: ProcessedImage): FileToStore[] {
  return [
    { key: fullImageKey(base), body: image.full, contentType: 'image/jpeg' },
    ...image.variants.map((variant) => ({ key: variantKey(base, variant.width), body: variant.body, contentType: 'image/webp' })),
  ];
}

/** Writes every file of an image, or none (the seeder; the app goes through TrackedFiles). */
export function storeImage(storage: Storage, base: string, image: ProcessedImage): Promise<void> {
  return putAll(storage, imageFiles(base, image));
}

export function imageSet(row: { imageKey: string; width: number; height: number; placeholder: string }): ImageSet {
  return {
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    full: `/media/${fullImageKey(row.imageKey)}`,
    // A variant is never wider than the image itself (no enlargement).
    variants: GRID_WIDTHS.map((width) => ({ src: `/media/${variantKey(row.imageKey, width)}`, width: Math.min(width, row.width) })),
  };
}
