import { Redis } from 'ioredis';
import type { CounterStore } from './rate-limiter.js';

/**
 * Rate-limit counters in Redis, so every app process counts against the same limits.
 * INCR and PEXPIRE run in one MULTI, and the window starts with the first hit (NX).
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'dormboard:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  async get(key: string) {
    const [[, count], [, ttl]] = (await this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    return { count: Number(count ?? 0), resetAt: Date.now() + Math.max(0, ttl) };
  }

  async increment(key: string, windowMs: number) {
    const [[, count], , [, ttl]] = (await this.redis
      .multi()
      .incr(this.prefix + key)
      .pexpire(this.prefix + key, windowMs, 'NX')
      .pttl(this.prefix + key)
      .exec()) as [[unknown, number], unknown, [unknown, number]];
    return { count, resetAt: Date.now() + Math.max(0, ttl) };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }

  async close() {
    await this.redis.quit();
  }
}
