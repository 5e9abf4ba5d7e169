import type { ErrorCode } from '../../shared/errors.js';
import { AppError } from './app-error.js';

/**
 * Fixed-window counters. In memory for one process; a shared store (Redis) makes the limits
 * hold across many processes.
 */
export interface CounterStore {
  /** Current count in the key's window, without counting. */
  get(key: string): Promise<{ count: number; resetAt: number }>;
  /** Counts one hit and returns the new count. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
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

export class RateLimiter {
  constructor(private readonly store: CounterStore) {}

  /** Counts a hit; throws 429 (with the given code) once the key has used up its window. */
  async hit(key: string, limit: number, windowMs: number, code?: ErrorCode): Promise<void> {
    const { count, resetAt } = await this.store.increment(key, windowMs);
    if (count > limit) throw tooManyRequests(resetAt, code);
  }

  /** Throws 429 when the key has already used up its window, without counting. */
  async check(key: string, limit: number): Promise<void> {
    const { count, resetAt } = await this.store.get(key);
    if (count >= limit) throw tooManyRequests(resetAt);
  }

  async record(key: string, windowMs: number): Promise<void> {
    await this.store.increment(key, windowMs);
  }

  async clear(key: string): Promise<void> {
    await this.store.reset(key);
  }
}
