import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { Change, Changes } from '../cache/changes.js';
import { readFreshFromNowOn, withinRequest } from '../cache/fresh-reads.js';
import type { ReadCache } from '../cache/read-cache.js';
import type { ChangeNotices, NoticeWriter } from './change-notices.js';
import type { AppDb } from './database.js';

const CHANNEL = 'dormboard_changes';
/** How long a process waits before listening again after losing its connection. */
const RECONNECT_MS = 1_000;

interface Notice {
  /** Unique per change: `<process>:<counter>`. */
  id: string;
  change: Change;
  /** When the writing process wrote it (its clock, ms since 1970): for the lag metric. Older processes send none. */
  at?: number;
}

/** Told how late each notice of another process arrived, and of each reconnection (metrics/metrics.ts). */
export interface FeedObserver {
  /** Seconds from the notice's writing (the writer's clock) to its hearing (this one's). */
  heard(lagSeconds: number): void;
  reconnected(): void;
}

/**
 * Changes between processes that share PostgreSQL, over LISTEN/NOTIFY: each process hears what
 * every other one changes within milliseconds and forgets what it makes stale.
 *
 * A change's notice is written in the transaction of its data (ChangeNotices): its NOTIFY is
 * sent only if that transaction commits, and it marks the rows of the users concerned (who made
 * it and whom it is about: last_change_id) in the same transaction. Their next request loads that
 * row with their session; a process that has not heard of that change yet (its listener is
 * behind, or cut off) reads around its cache for them (registerReadYourWrites). Changes committed
 * before this process started listening need no notice: its cache was empty then.
 *
 * A process that loses its listening connection caches nothing until it listens again (it may
 * be missing changes), then starts from an empty cache.
 *
 * WARNING: "before this process started listening" compares last_change_at (the time the notice
 * was written, just before its transaction commits) with the time LISTEN was in place, both the
 * database's clock. A change stamped just before LISTEN but committed after it is the only one
 * that could slip by; it is still delivered and applied moments later.
 * Cost: PostgreSQL serialises the commits of transactions that NOTIFY (one queue lock), as it did
 * the statements that notified on their own before.
 */
export class PostgresChangeFeed implements NoticeWriter {
  private readonly process = randomUUID();
  private counter = 0;
  /** Changes this process has heard of, recent ones (older ones are older than its cache). */
  private readonly heard = new LRUCache<string, true>({ max: 100_000 });
  private client: pg.Client | undefined;
  /** The database's time when this process started listening; undefined while it is not. */
  private listeningSince: Date | undefined;
  private stopped = false;
  private reconnect: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      databaseUrl: string;
      changes: Changes;
      notices: ChangeNotices;
      cache: ReadCache;
      log: { warn(details: object, message: string): void; info(message: string): void };
      connectTimeoutMs: number;
      observer?: FeedObserver;
    },
  ) {
    options.cache.suspend();
    options.notices.writeWith(this);
  }

  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      keepAlive: true,
    });
    client.on('notification', (message) => this.hear(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    const { rows } = await client.query<{ now: Date }>('SELECT now() AS now');
    this.client = client;
    this.listeningSince = rows[0]!.now;
    this.options.cache.resume();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Whether the LISTEN connection is up (readiness: while it is not, this process caches nothing). */
  get listening(): boolean {
    return this.listeningSince !== undefined;
  }

  /** Whether this viewer's latest change may not have reached this process's cache yet. */
  owesChange(viewer: { lastChangeId: string | null; lastChangeAt: Date | null }): boolean {
    if (!viewer.lastChangeId || !viewer.lastChangeAt) return false;
    // Not listening: the cache is suspended anyway.
    if (!this.listeningSince) return true;
    if (viewer.lastChangeAt < this.listeningSince) return false;
    return !this.heard.has(viewer.lastChangeId);
  }

  /** In the transaction of the change: marks the users concerned and queues the NOTIFY (sent on commit). */
  async write(tx: AppDb, userIds: string[], change: Change): Promise<void> {
    this.counter += 1;
    const notice: Notice = { id: `${this.process}:${this.counter}`, change, at: Date.now() };
    // Heard already: this process delivers its own changes itself, right after the commit.
    this.heard.set(notice.id, true);
    // A change nobody made or is about (a moderator's notice to many) marks no one.
    const ids =
      userIds.length > 0
        ? sql`id IN (${sql.join(
            userIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`;
    await tx.execute(sql`
      WITH marked AS (
        UPDATE users SET last_change_id = ${notice.id}, last_change_at = clock_timestamp() WHERE ${ids}
      )
      SELECT pg_notify(${CHANNEL}, ${JSON.stringify(notice)})`);
  }

  private hear(payload: string | undefined) {
    let notice: Notice;
    try {
      notice = JSON.parse(payload ?? '') as Notice;
    } catch {
      return;
    }
    // This process's own changes were delivered when they were made.
    if (notice.id.startsWith(`${this.process}:`)) return;
    this.heard.set(notice.id, true);
    if (typeof notice.at === 'number') this.options.observer?.heard((Date.now() - notice.at) / 1000);
    this.options.changes.deliver(notice.change);
  }

  private lost(client: pg.Client, error: Error) {
    if (this.client !== client) return;
    this.client = undefined;
    this.listeningSince = undefined;
    this.options.cache.suspend();
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.options.log.warn({ err: error }, 'change feed lost: caching paused until it is back');
    this.retry();
  }

  private retry() {
    this.reconnect = setTimeout(() => {
      this.start().then(
        () => {
          this.options.observer?.reconnected();
          this.options.log.info('change feed back: caching again');
        },
        () => this.retry(),
      );
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}

/**
 * Every API request runs in a scope of its own; once its viewer is known, one whose latest change
 * this process has not heard of yet reads around the cache (see PostgresChangeFeed).
 */
export function registerReadYourWrites(app: FastifyInstance, feed: PostgresChangeFeed) {
  app.addHook('onRequest', (_request, _reply, done) => withinRequest(done));
  app.addHook('preHandler', async (request) => {
    if (request.viewerLastChange && feed.owesChange(request.viewerLastChange)) readFreshFromNowOn();
  });
}
