import type { FastifyBaseLogger } from 'fastify';
import type { Mail, Mailer } from './mailer.js';

/**
 * Mail is written and sent after the answer has gone. A request whose answer must not depend on
 * what it found (is there such an account?) posts a job here and answers at once: the job looks
 * things up, and returns the mail to send, or nothing. So the answer's time says nothing either,
 * and a slow or failed SMTP server is logged, never shown.
 *
 * At most `capacity` jobs wait at once; more are dropped and logged (an SMTP outage must not
 * grow the queue without bound).
 */
export class Outbox {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly capacity = 100,
  ) {}

  /**
   * Runs `compose` once the current answer is on its way, and sends the mail it returns; a
   * failure goes to `log` (the asking request's, so the line names it), never to the asker.
   */
  post(what: string, log: FastifyBaseLogger, compose: () => Promise<Mail | undefined>): void {
    if (this.pending.size >= this.capacity) {
      log.error({ mail: what }, 'mail dropped: too many waiting to be sent');
      return;
    }
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(compose)
      .then((mail) => mail && this.mailer.send(mail))
      .catch((error: unknown) => log.error({ err: error, mail: what }, 'mail not sent'))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once every job posted so far has finished (the server's shutdown; tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  async close(): Promise<void> {
    await this.idle();
    this.mailer.close();
  }
}
