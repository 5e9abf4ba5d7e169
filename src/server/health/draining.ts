import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this process is shutting down, and what it still has in flight. */
    draining: Draining;
  }
}

/**
 * A process on its way out (SIGTERM): /readyz says so at once, so a balancer stops sending it
 * work, while the requests already in flight run to their end before the database closes
 * (health/shutdown.ts).
 *
 * A request is in flight from its onRequest hook until its response has been sent or its
 * connection has gone (a client that gave up is not waited for: its handler may still run into
 * the closed database, and what it leaves behind is what a crash would, for the orphan sweep). Every connection is kept track of too, so that once nothing is in flight
 * the ones left open (idle keep-alive ones, a browser's spare one that never sent a request) can
 * be ended without waiting for the whole grace.
 */
export class Draining {
  private draining = false;
  private inFlightCount = 0;
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();

  /** Hooks first, before any route: every request of the app is counted. */
  constructor(app: FastifyInstance) {
    app.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    app.addHook('onRequest', (request, reply, done) => {
      this.inFlightCount += 1;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        this.inFlightCount -= 1;
        if (this.inFlightCount === 0) for (const wake of [...this.waiters]) wake();
      };
      // 'close': sent, or the connection is gone; onResponse as well for app.inject's replies.
      reply.raw.once('close', finish);
      finishers.set(request, finish);
      done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      finishers.get(request)?.();
      done();
    });
    // A response sent while draining closes its connection behind it, rather than keeping it
    // for a next request that would hold up the shutdown (Fastify does it for requests that
    // arrive while closing, not for those already in flight).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (this.draining) reply.header('connection', 'close');
      done(null, payload);
    });
  }

  get active(): boolean {
    return this.draining;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** From now on /readyz answers 503. */
  begin() {
    this.draining = true;
  }

  /** Resolves true once no request is in flight, or false when `ms` pass first. */
  settled(ms: number): Promise<boolean> {
    if (this.inFlightCount === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, ms);
      this.waiters.add(wake);
    });
  }

  /**
   * Ends every connection still open once nothing is in flight: after what was written to it
   * (end, not destroy), so the last response of a connection is never cut off.
   */
  endConnections() {
    for (const socket of this.sockets) socket.end();
  }
}

/** Each request's end, for its onResponse hook. */
const finishers = new WeakMap<object, () => void>();
