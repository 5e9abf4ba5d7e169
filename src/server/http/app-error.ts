import { ERRORS, errorCodeOf, type ErrorCode } from '../../shared/errors.js';
import type { SecurityEvent } from './security-log.js';

/**
 * A failure the user should hear about. Services throw it; the one error handler turns it
 * into `{ code, message, messages? }` with the given HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messages?: string[],
    readonly headers: Record<string, string> = {},
  ) {
    // A code whose text has a {placeholder} says it filled in, as its line in `messages` does.
    super(messages?.find((message) => errorCodeOf(message) === code) ?? ERRORS[code]);
    this.name = 'AppError';
  }

  /**
   * What the security log records about this refusal, beyond what its code tells: the account it
   * concerns (a wrong password for someone), or an event its code hides (a 404 that is really a
   * refused deletion of someone else's post).
   */
  audit?: { event?: SecurityEvent; accountId?: string };

  withAudit(audit: { event?: SecurityEvent; accountId?: string }): this {
    this.audit = audit;
    return this;
  }
}
