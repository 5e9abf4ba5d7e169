import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function tokensMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The admin routes (`npm run backup`, `npm run admin` while the app runs on the embedded
 * database) answer only a tool on this machine: a loopback connection (the socket's own address,
 * never a forwarded header) holding the token of DATA_DIR/server.json. To anyone else they do
 * not exist: 404.
 */
export function requireLocalAdmin(request: FastifyRequest, token: string): void {
  const given = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '') || !tokensMatch(token, given)) throw new AppError(404, 'NOT_FOUND');
}
