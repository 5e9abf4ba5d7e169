import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/errors.js';

/**
 * Security events (OWASP ASVS V16.3): one log line each, tagged `security` so they can be
 * filtered from the request log, with the account (its id), the address, the route and, for a
 * refusal, its error code. Never a password, a session token or an e-mail address.
 */
export type SecurityEvent =
  | 'signed up'
  | 'signed in'
  | 'sign-in failed'
  | 'password check failed'
  | 'signed out'
  | 'signed out everywhere'
  | 'changed password'
  | 'changed e-mail'
  | 'verified e-mail'
  | 'linked single sign-on'
  | 'unlinked single sign-on'
  | 'ended a session'
  | 'deleted account'
  | 'downloaded data'
  | 'ran an admin command'
  | 'mailed a reset link'
  | 'reset password'
  | 'reset link refused'
  | 'invite code refused'
  | 'created an invite'
  | 'revoked an invite'
  | 'suspended sign-in refused'
  | 'moderation action'
  | 'changed a role'
  | 'rate limited'
  | 'cross-site request refused'
  | 'authorization refused';

export function logSecurityEvent(
  request: FastifyRequest,
  event: SecurityEvent,
  details: { userId?: string; code?: ErrorCode; command?: string } = {},
) {
  const line = { security: event, ip: request.ip, route: request.routeOptions.url, ...details };
  // Refusals are warnings: a run of them is an attack, or a broken client, worth a look.
  if (details.code) request.log.warn(line, `security: ${event}`);
  else request.log.info(line, `security: ${event}`);
}
