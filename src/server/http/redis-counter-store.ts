import { Redis } from 'ioredis';
import type { CounterStore } from './rate-limiter.js';

/**
 * The replies of one MULTI/EXEC. A command that fails inside a transaction does not reject
 * exec(): its error sits in its slot. Rethrow it, so a broken counter fails the request instead
 * of reading as "no hits" (which would switch the limit off).
 */
function replies(results: Array<[Error | null, unknown]> | null): unknown[] {
  if (!results) throw new Error('Redis transaction was aborted');
  for (const [error] of results) if (error) throw error;
  return results.map(([, value]) => value);
}

function countOf(value: unknown): number {
  const count = Number(value ?? 0);
  if (!Number.isInteger(count)) throw new Error(`rate-limit counter is not an integer: ${String(value)}`);
  return count;
}

const DECREMENT_IF_PRESENT = `if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

/**
 * Rate-limit counters in Redis, so every app process counts against the same limits.
 * INCR and PEXPIRE run in one MULTI, and the window starts with the first hit (NX).
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  /**
   * onError hears of a lost connection once per outage (ioredis keeps reconnecting and would
   * otherwise print "Unhandled error event" on every attempt).
   */
  constructor(
    url: string,
    private readonly prefix = 'dormboard:rl:',
    onError: (error: Error) => void = () => undefined,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    let reported = false;
    this.redis.on('error', (error: Error) => {
      if (!reported) onError(error);
      reported = true;
    });
    this.redis.on('ready', () => (reported = false));
  }

  async get(key: string) {
    const [value, ttl] = replies(
      await this.redis
        .multi()
        .get(this.prefix + key)
        .pttl(this.prefix + key)
        .exec(),
    );
    const count = countOf(value);
    // No window (as in memory): resetAt 0.
    if (count === 0) return { count: 0, resetAt: 0 };
    return { count, resetAt: Date.now() + Math.max(0, Number(ttl)) };
  }

  async increment(key: string, windowMs: number) {
    const [count, , ttl] = replies(
      await this.redis
        .multi()
        .incr(this.prefix + key)
        .pexpire(this.prefix + key, windowMs, 'NX')
        .pttl(this.prefix + key)
        .exec(),
    );
    return { count: countOf(count), resetAt: Date.now() + Math.max(0, Number(ttl)) };
  }

  /** DECR alone would create a key without expiry (-1, for ever) when the window has just ended. */
  async decrement(key: string) {
    await this.redis.eval(DECREMENT_IF_PRESENT, 1, this.prefix + key);
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  /** Whether Redis answers (readiness). */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close() {
    await this.redis.quit();
  }

  /** Stops at once, without the QUIT a lost server would never answer. */
  disconnect() {
    this.redis.disconnect();
  }
}
