import path from 'node:path';

/**
 * Where uploaded files live. Keys are relative paths such as "images/<post>/<version>-400.webp";
 * a key is written once and never changed (new content gets a new key), so files can be cached
 * forever by browsers and CDNs.
 */
export interface StoredFile {
  body: Buffer;
  contentType: string;
}

export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or undefined when there is none. */
  get(key: string): Promise<StoredFile | undefined>;
  /** Removing a missing file is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are made by the server, but a key from a URL must never escape the storage root. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) && !key.split('/').some((part) => part === '..' || part === '.');
}

/** Content types by extension: the server chose the extension when it encoded the file. */
const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.png': 'image/png',
};

/** The image type a key was stored as, or undefined for a key the server never makes. */
export function contentTypeOf(key: string): string | undefined {
  return CONTENT_TYPES[path.extname(key)];
}
