import { systemClock, type Clock } from '../clock.js';

/**
 * Values worth sharing between requests, kept for a moment (ttlMs), newest use last, at most
 * maxEntries of them. Simultaneous misses for one key share a single computation, and a failed
 * computation is not remembered. The process that changes the underlying data deletes the key
 * (or clears everything) at once; other processes see the change within ttlMs.
 */
export class MemoCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly now: Clock = systemClock,
  ) {}

  async get(key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    const entry = { value, expires: now + this.ttlMs };
    this.entries.delete(key);
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}
