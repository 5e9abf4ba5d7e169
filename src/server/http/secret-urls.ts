import type { FastifyRequest } from 'fastify';
import { isUnder } from './url-space.js';

/**
 * Pages whose path past the prefix is a secret: a password reset link's token (/reset/{token}),
 * an address verification link's (/verify/{token}, issue 29).
 */
const SECRET_PAGES = ['/reset', '/verify'];

export const isSecretPage = (url: string) => SECRET_PAGES.some((prefix) => isUnder(url, prefix));

/** The URL as a log line may hold it: a secret page's token replaced, the rest kept. */
export function redactedUrl(url: string): string {
  const prefix = SECRET_PAGES.find((page) => isUnder(url, page));
  return prefix && url.length > prefix.length ? `${prefix}/[redacted]` : url;
}

/**
 * Fastify's own request serializer (the "incoming request" and error lines), with the URL
 * redacted: a reset link opened in the browser is a GET of /reset/{token}, and logs are kept
 * for weeks by people who must not be able to use it.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    version: String(request.headers['accept-version'] ?? '') || undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
