import type { RateLimitConfig } from '../config.js';
import type { RateLimiter } from '../http/rate-limiter.js';

/**
 * Counts one board write (a save, a removal, a board or membership change) against the
 * account's hourly allowance, which bounds the rows one account can add. Counted once the
 * request is known to be sensible: a typo costs nothing.
 */
export function countBoardWrite(limiter: RateLimiter, limits: RateLimitConfig, userId: string): Promise<void> {
  return limiter.hit(`boards:user:${userId}`, limits.boardWritesPerUser, limits.boardWriteWindowMs, 'SAVING_TOO_FAST');
}
