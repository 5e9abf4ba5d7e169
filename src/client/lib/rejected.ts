import { ERRORS, type ErrorCode } from '../../shared/errors';
import { ApiError } from '../api/http';

/** A check the client ran before sending failed; carries the spec's error code and text. */
export class Rejected extends Error {
  constructor(readonly code: ErrorCode) {
    super(ERRORS[code]);
  }
}

/** What an error dialog shows: the spec's text for our own and the server's errors. */
export function errorMessage(error: unknown): string {
  return error instanceof Rejected || error instanceof ApiError ? error.message : ERRORS.GENERIC;
}

/** A form's messages for a failed request: the server's own when it sent them, else the fallback. */
export function errorMessages(error: unknown, fallback: string[] = [ERRORS.GENERIC]): string[] {
  if (error instanceof ApiError && error.code !== 'GENERIC') return error.messages;
  return fallback;
}
