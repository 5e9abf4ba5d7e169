import type { ErrorCode } from '../errors.js';
import { BIO_MAX_LENGTH } from '../limits.js';

/** A bio is saved only when non-empty (spec section 5); an over-long one is refused. */
export function validateBio(bio: string): ErrorCode | null {
  return Array.from(bio).length > BIO_MAX_LENGTH ? 'BIO_TOO_LONG' : null;
}
