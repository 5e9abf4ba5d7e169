import { randomBytes } from 'node:crypto';
import { ICON_SIZES } from '../images/image-pipeline.js';
import { deleteAll, putAll } from '../storage/batch.js';
import type { Storage } from '../storage/storage.js';

/** One base key per uploaded icon ("profiles/<uid>/<version>"): a new URL for new content. */
export function newIconKey(userId: string): string {
  return `profiles/${userId}/${randomBytes(4).toString('hex')}`;
}

const sizeKey = (base: string, size: number) => `${base}-${size}.webp`;

/** The URL clients use: the largest square, sharp on any avatar we draw. */
export function iconUrl(base: string | null): string | null {
  return base ? `/media/${sizeKey(base, ICON_SIZES[ICON_SIZES.length - 1]!)}` : null;
}

export function storeIcon(storage: Storage, base: string, sizes: Array<{ size: number; body: Buffer }>) {
  return putAll(storage, sizes.map(({ size, body }) => ({ key: sizeKey(base, size), body, contentType: 'image/webp' })));
}

export function deleteIcon(storage: Storage, base: string): Promise<string[]> {
  return deleteAll(storage, ICON_SIZES.map((size) => sizeKey(base, size)));
}
