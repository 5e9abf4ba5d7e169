import type { ErrorCode } from '../errors.js';
import { DESCRIPTION_MAX_LENGTH, LINK_MAX_LENGTH, POST_IDEMPOTENCY_KEY_MAX_LENGTH } from '../limits.js';

/** A link is empty or an absolute http(s) URL: never javascript:, data: or anything else. */
export function isHttpLink(link: string): boolean {
  try {
    const url = new URL(link);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/**
 * The text rules of a new post (spec section 5), in the spec's order. The image rules need the
 * file and run where the file is (compressor on the client, decoder on the server).
 */
export function validatePostText({ description, link }: { description: string; link: string }): ErrorCode | null {
  if (description.length > DESCRIPTION_MAX_LENGTH) return 'DESCRIPTION_TOO_LONG';
  if (link.length > LINK_MAX_LENGTH) return 'URL_TOO_LONG';
  if (link !== '' && !isHttpLink(link)) return 'INVALID_LINK';
  return null;
}

/** The spec's file-type rule: the declared type must contain 'image/'. */
export function isImageType(type: string): boolean {
  return type.includes('image/');
}

const IDEMPOTENCY_KEY = new RegExp(`^[A-Za-z0-9_-]{1,${POST_IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** An upload form's key (issue 26: the same key answers with the first post): URL-safe, short. */
export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}
