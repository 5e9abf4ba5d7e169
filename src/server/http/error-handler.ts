import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type ApiErrorBody, type ErrorCode } from '../../shared/errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from './app-error.js';
import { logSecurityEvent, type SecurityEvent } from './security-log.js';
import { hasSqlState } from '../db/sql-state.js';

function body(code: ErrorCode, extra: Partial<ApiErrorBody> = {}): ApiErrorBody {
  return { code, message: ERRORS[code], ...extra };
}

/** Fastify's own 4xx errors (bad JSON, wrong content type, body too large...) by status. */
function codeForStatus(status: number): ErrorCode {
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

/**
 * PostgreSQL refuses text it cannot store (a NUL byte, say) with SQLSTATE class 22 "data
 * exception": that is bad input from the client, not a server fault.
 */
function isBadTextForDatabase(error: unknown): boolean {
  return hasSqlState(error, '22021', '22P05');
}

/**
 * Errors the router raises before any route or hook runs (a malformed %-escape in the path, a
 * path parameter over the router's length limit). Fastify's own body for them is not in the
 * catalogue; this is Fastify's `frameworkErrors` option.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendByStatus(error, request, reply);
}

/** A 4xx keeps its status with the catalogue's code for it; anything else is a logged 500. */
function sendByStatus(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.code(status).send(body(codeForStatus(status)));
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(body('GENERIC'));
}

/** One place maps every failure to HTTP; 5xx details stay in the log, never in the response. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      logRefusal(request, error);
      return reply
        .code(error.status)
        .headers(error.headers)
        .send(body(error.code, { message: error.message, ...(error.messages && { messages: error.messages }) }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail = error.validation.map((issue) => `${issue.instancePath || '/'} ${issue.message}`.trim()).join('; ');
      return reply.code(400).send(body('BAD_REQUEST', { detail }));
    }
    if (isBadTextForDatabase(error)) return reply.code(400).send(body('BAD_REQUEST'));
    if (isDatabaseUnavailable(error)) {
      // An outage, not a bug: the client may retry, and the pool reconnects once it is over.
      request.log.error({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send(body('SERVICE_UNAVAILABLE'));
    }
    return sendByStatus(error, request, reply);
  });
}

/** Refusals that are security events whatever route gave them. */
const EVENT_FOR_CODE: Partial<Record<ErrorCode, SecurityEvent>> = {
  INCORRECT_LOGIN: 'sign-in failed',
  USERNAME_NOT_REGISTERED: 'sign-in failed',
  /** A signed-in user's password typed again (Change Password, Delete Account) was wrong. */
  INCORRECT_PASSWORD: 'password check failed',
  CROSS_SITE_REQUEST: 'cross-site request refused',
  RESET_LINK_INVALID: 'reset link refused',
  /** A sign-up whose only problem was its invite code (REGISTRATION=invite): a run of them is guessing. */
  INVITE_CODE_INVALID: 'invite code refused',
  /** The right password for a suspended account (issue 17). */
  ACCOUNT_SUSPENDED_UNTIL: 'suspended sign-in refused',
  ACCOUNT_SUSPENDED: 'suspended sign-in refused',
};

/** Called by the error handler for every AppError: logs the ones that are security events. */
export function logRefusal(request: FastifyRequest, error: AppError) {
  const event = error.audit?.event ?? (error.status === 429 ? 'rate limited' : EVENT_FOR_CODE[error.code]);
  if (!event) return;
  logSecurityEvent(request, event, { code: error.code, userId: error.audit?.accountId ?? request.viewer?.id });
}
