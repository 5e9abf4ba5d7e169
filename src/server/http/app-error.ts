import { ERRORS, type ErrorCode } from '../../shared/errors.js';

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
    super(ERRORS[code]);
    this.name = 'AppError';
  }
}
