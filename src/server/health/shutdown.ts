import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';

/**
 * How long requests in flight get to finish on shutdown. Connections with nothing in flight
 * (idle keep-alive ones, a browser's spare one that never sent a request) are ended as soon as
 * the last request is done; a request still running at the end is cut off.
 */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Stops a server in the order that loses nothing: /readyz answers 503 at once (a balancer drains
 * the process), no new connection is accepted, the requests in flight finish (bounded by
 * `graceMs`), then the app's own connections close (change feed, Redis, mail), and only then the
 * database. WARNING: the database last: an upload still running when it closed failed with a
 * database error (the embedded database's files were already closed).
 */
export async function shutdownServer(
  app: FastifyInstance,
  database: Database,
  { graceMs = SHUTDOWN_GRACE_MS }: { graceMs?: number } = {},
): Promise<void> {
  app.draining.begin();
  // Fastify stops the listener first and waits for the open connections; its onClose hooks run after.
  const closed = app.close();
  const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs);
  const settled = await app.draining.settled(graceMs);
  if (settled) app.draining.endConnections();
  else app.log.warn({ inFlight: app.draining.inFlight }, 'requests still in flight at the end of the shutdown grace were cut off');
  await closed;
  clearTimeout(deadline);
  await database.close();
}
