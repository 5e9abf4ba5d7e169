import { randomBytes } from 'node:crypto';
import { ICON_SIZES } from '../images/image-pipeline.js';
import type { FileToStore } from '../storage/batch.js';

/** One base key per uploaded icon ("profiles/<uid>/<version>"): a new URL for new content. */
export function newIconKey(userId: string): string {
  return `profiles/${userId}/${randomBytes(4).toString('hex')}`;
}

const sizeKey = (base: string, size: number) => `${base}-${size}.webp`;

/** The largest square: what clients draw (sharp on any avatar) and Download My Data includes. */
export function largestIconKey(base: string): string {
  return sizeKey(base, ICON_SIZES[ICON_SIZES.length - 1]!);
}

/** The URL clients use: the largest square. */
export function iconUrl(base: string | null): string | null {
  return base ? `/media/${largestIconKey(base)}` : null;
}

export function iconFiles(base: string, sizes: Array<{ size: number; body: Buffer }>): FileToStore[] {
  return sizes.map(({ size, body }) => ({ key: sizeKey(base, size), body, contentType: 'image/webp' }));
}

export function iconFileKeys(base: string): string[] {
  return ICON_SIZES.map((size) => sizeKey(base, size));
}
