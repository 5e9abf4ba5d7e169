import { randomBytes } from 'node:crypto';
import type { ImageSet } from '../../shared/api/posts.js';
import type { ProcessedImage } from '../images/image-pipeline.js';
import { GRID_WIDTHS } from '../images/image-pipeline.js';
import type { Storage } from '../storage/storage.js';

/**
 * Where a post's files live. One base key per upload ("images/<post>/<version>"); the
 * version makes every URL unique to its content, so it can be cached as immutable.
 */
export function newImageKey(postId: string): string {
  return `images/${postId}/${randomBytes(4).toString('hex')}`;
}

const fullKey = (base: string) => `${base}-full.jpg`;
const variantKey = (base: string, width: number) => `${base}-${width}.webp`;

export function imageFileKeys(base: string): string[] {
  return [fullKey(base), ...GRID_WIDTHS.map((width) => variantKey(base, width))];
}

/** Writes every file of an image; if any write fails, removes those that succeeded. */
export async function storeImage(storage: Storage, base: string, image: ProcessedImage): Promise<void> {
  const writes = [
    { key: fullKey(base), body: image.full, type: 'image/jpeg' },
    ...image.variants.map((variant) => ({ key: variantKey(base, variant.width), body: variant.body, type: 'image/webp' })),
  ];
  const results = await Promise.allSettled(writes.map((w) => storage.put(w.key, w.body, w.type)));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await deleteImage(storage, base);
    throw failure.reason;
  }
}

/** Removes every file of an image; returns the keys it could not remove. */
export async function deleteImage(storage: Storage, base: string): Promise<string[]> {
  const keys = imageFileKeys(base);
  const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
  return keys.filter((_, index) => results[index]!.status === 'rejected');
}

export function imageSet(row: { imageKey: string; width: number; height: number; placeholder: string }): ImageSet {
  return {
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    full: `/media/${fullKey(row.imageKey)}`,
    // A variant is never wider than the image itself (no enlargement).
    variants: GRID_WIDTHS.map((width) => ({ src: `/media/${variantKey(row.imageKey, width)}`, width: Math.min(width, row.width) })),
  };
}
