import type { ErrorCode } from '../../shared/errors.js';
import { AppError } from './app-error.js';

/**
 * Fixed-window counters. In memory for one process; a shared store (Redis) makes the limits
 * hold across many processes.
 */
export interface CounterStore {
  /** Current count in the key's window, without counting. */
  get(key: string): Promise<{ count: number; resetAt: number }>;
  /** Counts one hit and returns the new count, in one atomic step. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** Takes back one hit of the key's current window (nothing when the window has ended). */
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async get(key: string) {
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= Date.now()) return { count: 0, resetAt: 0 };
    return { ...entry };
  }

  async increment(key: string, windowMs: number) {
    const now = Date.now();
    this.sweep(now, windowMs);
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return { ...entry };
  }

  async decrement(key: string) {
    const entry = this.windows.get(key);
    if (entry && entry.resetAt > Date.now() && entry.count > 0) entry.count -= 1;
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  /** Drops expired windows now and then so memory stays bounded by recent traffic. */
  private sweep(now: number, windowMs: number) {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}

export function tooManyRequests(resetAt: number, code: ErrorCode = 'RATE_LIMITED'): AppError {
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return new AppError(429, code, undefined, { 'retry-after': String(seconds) });
}

/** One counted hit, given back with release() when the attempt turns out not to count. */
export interface Slot {
  resetAt: number;
  release(): Promise<void>;
}

/** Told of each refused attempt, by the limit's name (limitName): metrics/metrics.ts. */
export interface LimitObserver {
  refused(limit: string): void;
}

/** Words of a key that say whom a limit counts: the key's name ends there, before the who. */
const WHO = new Set(['ip', 'user', 'typed', 'address']);

/**
 * The limit a key counts for, without whom it counts: `login:fail:ip:10.0.0.1` is
 * `login:fail:ip`, `posts:user:<id>` is `posts:user`. Keys are written in the code as
 * `<name>[:<part>]:<who>:<id>`, so names are a bounded set; a key of another shape gives its first word.
 */
export function limitName(key: string): string {
  const words = key.split(':');
  const who = words.slice(0, 4).findIndex((word) => WHO.has(word));
  return who === -1 ? words[0]! : words.slice(0, who + 1).join(':');
}

export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly observer?: LimitObserver,
  ) {}

  /** Counts a hit; throws 429 (with the given code) once the key has used up its window. */
  async hit(key: string, limit: number, windowMs: number, code?: ErrorCode): Promise<void> {
    const { count, resetAt } = await this.store.increment(key, windowMs);
    if (count > limit) {
      this.observer?.refused(limitName(key));
      throw tooManyRequests(resetAt, code);
    }
  }

  /**
   * Takes one of the key's `limit` slots in its window, or undefined when none is left.
   *
   * WARNING: never check a count and record the attempt afterwards: concurrent requests all pass
   * the check before any records, and 20 guesses get through a limit of 10. The slot is taken
   * first, in one atomic increment, so of any number of simultaneous attempts exactly `limit`
   * get one. A refused attempt is taken back, so refusals alone never extend the count.
   */
  async tryTake(key: string, limit: number, windowMs: number): Promise<Slot | undefined> {
    return (await this.attempt(key, limit, windowMs)).slot;
  }

  /** One atomic increment: a slot, or none (taken back) and when the window ends. */
  private async attempt(key: string, limit: number, windowMs: number): Promise<{ slot?: Slot; resetAt: number }> {
    const { count, resetAt } = await this.store.increment(key, windowMs);
    if (count <= limit) return { slot: { resetAt, release: () => this.store.decrement(key) }, resetAt };
    this.observer?.refused(limitName(key));
    await this.store.decrement(key);
    return { resetAt };
  }

  /**
   * Takes a slot of every limit, or none: the first one used up throws its 429 (with the code
   * given) after the slots already taken are given back.
   */
  async take(limits: Array<{ key: string; limit: number }>, windowMs: number, code?: ErrorCode): Promise<Slot[]> {
    const taken: Slot[] = [];
    for (const { key, limit } of limits) {
      const { slot, resetAt } = await this.attempt(key, limit, windowMs);
      if (!slot) {
        await Promise.all(taken.map((each) => each.release()));
        throw tooManyRequests(resetAt, code);
      }
      taken.push(slot);
    }
    return taken;
  }

  /**
   * A slot of the first of these limits that has one left, and which one it was (its index);
   * when every one is used up, a 429 (with the code given) saying when the first of them frees.
   */
  async takeFirst(
    limits: Array<{ key: string; limit: number }>,
    windowMs: number,
    code?: ErrorCode,
  ): Promise<{ slot: Slot; index: number }> {
    let freeAt = Infinity;
    for (const [index, { key, limit }] of limits.entries()) {
      const { slot, resetAt } = await this.attempt(key, limit, windowMs);
      if (slot) return { slot, index };
      freeAt = Math.min(freeAt, resetAt);
    }
    throw tooManyRequests(freeAt, code);
  }

  async clear(key: string): Promise<void> {
    await this.store.reset(key);
  }
}
