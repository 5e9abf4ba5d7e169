/**
 * Whether an error means "the database could not be reached or went away", as opposed to "the
 * database refused this statement". The first is an outage (HTTP 503, try again soon); it also
 * means the outcome of a COMMIT in flight is unknown.
 */

/** Socket-level failures, from node-postgres or from the OS under it. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01 admin shutdown, 57P02 crash shutdown,
 * 57P03 cannot connect now (starting up, recovering), 53300 too many connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres reports these without a code. */
const PG_MESSAGES = [/^timeout exceeded when trying to connect/i, /^Connection terminated/i, /is not queryable$/i];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  // Drizzle wraps the driver's error in `cause`; Node's connect reports several addresses as an AggregateError.
  for (let e = error as ErrorLike | undefined; e && depth < 8; e = e.cause as ErrorLike | undefined, depth++) {
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || isUnavailableSqlState(e.code))) return true;
    if (typeof e.message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(e.message as string))) return true;
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  }
  return false;
}
