import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { AppDb } from '../db/database.js';
import { pushDeliveries, pushSubscriptions } from '../db/schema.js';
import type { VapidKeys } from './push-keys.js';
import { isAllowedEndpoint } from '../config/push-services.js';

/** How long a push service may keep a push for a device that is offline (its TTL header). */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** A push not sent within a day is dropped: old news. */
const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

export interface PushSenderOptions {
  db: AppDb;
  keys: VapidKeys;
  subject: string;
  services: readonly string[];
  log: FastifyBaseLogger;
  /** Pushes claimed at once (and sent side by side). */
  batch?: number;
  /** Tries before a push is dropped. */
  maxAttempts?: number;
  /** The first retry's wait; each later one waits four times as long (capped at an hour). */
  retryBaseMs?: number;
  /** How long one push service may take to answer. */
  timeoutMs?: number;
}

interface Claimed {
  id: string;
  subscriptionId: string;
  payload: string;
  attempts: number;
  createdAt: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  vapidKey: string;
}

type Outcome = 'sent' | 'gone' | 'retry' | 'dropped';

/**
 * Sends the queued pushes (push_deliveries), outside any request: a push service that is slow or
 * down never holds up the follow that caused the push. Each process sends: woken when pushes are
 * queued (here or, through the change feed, by another process) and every few seconds for
 * retries; `FOR UPDATE SKIP LOCKED` gives each push to one of them. A claimed push is moved a
 * few minutes on before it is sent, so a process that dies mid-send leaves it to be tried again.
 *
 * Answers: 2xx sent; 404/410 the subscription is gone (deleted, with its queue); 429 and 5xx (and
 * no answer) are retried with backoff, honouring Retry-After, up to `maxAttempts`; any other 4xx
 * is this server's fault or a refused key, dropped and logged.
 */
export class PushSender {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly batch: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: PushSenderOptions) {
    this.batch = options.batch ?? 20;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryBaseMs = options.retryBaseMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Sends what is due, now or right after the run in progress. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'push sending failed; the next run will retry'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves once no run is in progress (tests; the server's shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Claims and sends due pushes until none are left. */
  async drain(): Promise<void> {
    for (;;) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      // One push's failure (a lost connection) leaves the others sent; it is tried again once its claim runs out.
      await Promise.all(
        claimed.map((push) =>
          this.deliver(push).catch((error: unknown) =>
            this.options.log.warn({ err: error, push: push.id }, 'push not handled; will retry'),
          ),
        ),
      );
    }
  }

  private async claim(): Promise<Claimed[]> {
    const result = await this.options.db.execute(sql`
      update ${pushDeliveries} d
      set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${Math.ceil((this.timeoutMs * 3) / 1000)})
      from ${pushSubscriptions} s
      where s.id = d.subscription_id and d.id in (
        select id from ${pushDeliveries} where next_attempt_at <= now()
        order by next_attempt_at limit ${this.batch} for update skip locked)
      returning d.id, d.subscription_id as "subscriptionId", d.payload, d.attempts, d.created_at::text as "createdAt",
        s.endpoint, s.p256dh, s.auth, s.vapid_key as "vapidKey"`);
    return (result as { rows: Claimed[] }).rows;
  }

  private async deliver(push: Claimed): Promise<void> {
    const { db, log } = this.options;
    const outcome = await this.send(push);
    if (outcome === 'sent') {
      await db.delete(pushDeliveries).where(eq(pushDeliveries.id, push.id));
      await db
        .update(pushSubscriptions)
        .set({ lastSentAt: sql`now()` })
        .where(eq(pushSubscriptions.id, push.subscriptionId));
    } else if (outcome === 'gone') {
      // Its queue goes with it (ON DELETE CASCADE).
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, push.subscriptionId));
    } else if (outcome === 'retry' && push.attempts < this.maxAttempts && Date.now() - Date.parse(push.createdAt) < GIVE_UP_AFTER_MS) {
      // Already moved on by the claim; a Retry-After moved it further (retryAt).
    } else {
      if (outcome === 'retry') log.warn({ push: push.id, attempts: push.attempts }, 'push dropped after its last try');
      await db.delete(pushDeliveries).where(eq(pushDeliveries.id, push.id));
    }
  }

  private async send(push: Claimed): Promise<Outcome> {
    const { keys, subject, services, log } = this.options;
    // Made for another key (VAPID_* changed), or at a service no longer allowed: it can never work.
    if (push.vapidKey !== keys.publicKey || !isAllowedEndpoint(services, push.endpoint)) return 'gone';
    const request = webpush.generateRequestDetails(
      { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
      push.payload,
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      },
    );
    let response: Response;
    try {
      // fetch rather than web-push's own sender (https only): the same request to any allowed service.
      response = await fetch(request.endpoint, {
        method: request.method,
        headers: Object.fromEntries(
          Object.entries(request.headers)
            .filter(([name]) => name.toLowerCase() !== 'content-length')
            .map(([name, value]) => [name, String(value)]),
        ),
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.arrayBuffer();
    } catch (error) {
      log.info({ err: error, push: push.id }, 'push service did not answer; will retry');
      await this.retryAt(push, undefined);
      return 'retry';
    }
    const { status } = response;
    if (status >= 200 && status < 300) return 'sent';
    if (status === 404 || status === 410) return 'gone';
    if (status === 429 || status >= 500) {
      await this.retryAt(push, response.headers.get('retry-after'));
      return 'retry';
    }
    log.warn({ push: push.id, status }, 'push refused by the push service; dropped');
    return 'dropped';
  }

  /** The next try: backoff by attempts, or the service's Retry-After when later, at most an hour on. */
  private async retryAt(push: Claimed, retryAfter: string | null | undefined): Promise<void> {
    const asked = retryAfterMs(retryAfter);
    const waitMs = Math.min(60 * 60 * 1000, Math.max(asked, this.retryBaseMs * 4 ** (push.attempts - 1)));
    await this.options.db
      .update(pushDeliveries)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${waitMs / 1000})` })
      .where(eq(pushDeliveries.id, push.id));
  }
}

/**
 * A Retry-After header's wait (RFC 9110 §10.2.3): seconds, or an HTTP date; 0 when there is none
 * or it cannot be read.
 */
function retryAfterMs(value: string | null | undefined): number {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}
