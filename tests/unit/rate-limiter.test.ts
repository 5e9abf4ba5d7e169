import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '../../src/shared/errors.js';
import { AppError } from '../../src/server/http/app-error.js';
import { MemoryCounterStore, RateLimiter, tooManyRequests, type CounterStore } from '../../src/server/http/rate-limiter.js';

const T0 = new Date('2030-01-01T00:00:00.000Z').getTime();
const WINDOW = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the promise and returns what it threw (fails the test if it did not throw). */
async function thrown(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

describe('MemoryCounterStore', () => {
  it('starts at zero for an unknown key', async () => {
    const store = new MemoryCounterStore();
    expect(await store.get('nobody')).toEqual({ count: 0, resetAt: 0 });
  });

  it('counts hits in one window that ends windowMs after the first hit', async () => {
    const store = new MemoryCounterStore();
    expect(await store.increment('k', WINDOW)).toEqual({ count: 1, resetAt: T0 + WINDOW });
    vi.advanceTimersByTime(10_000);
    expect(await store.increment('k', WINDOW)).toEqual({ count: 2, resetAt: T0 + WINDOW });
    expect(await store.increment('k', WINDOW)).toEqual({ count: 3, resetAt: T0 + WINDOW });
    expect(await store.get('k')).toEqual({ count: 3, resetAt: T0 + WINDOW });
  });

  it('get does not count', async () => {
    const store = new MemoryCounterStore();
    await store.increment('k', WINDOW);
    await store.get('k');
    await store.get('k');
    expect((await store.get('k')).count).toBe(1);
  });

  it('keeps keys apart', async () => {
    const store = new MemoryCounterStore();
    await store.increment('a', WINDOW);
    await store.increment('a', WINDOW);
    await store.increment('b', WINDOW);
    expect((await store.get('a')).count).toBe(2);
    expect((await store.get('b')).count).toBe(1);
  });

  it('a window ends exactly at resetAt and the next hit starts a new one', async () => {
    const store = new MemoryCounterStore();
    await store.increment('k', WINDOW);
    await store.increment('k', WINDOW);
    vi.setSystemTime(T0 + WINDOW - 1);
    expect((await store.get('k')).count).toBe(2);
    vi.setSystemTime(T0 + WINDOW);
    expect(await store.get('k')).toEqual({ count: 0, resetAt: 0 });
    expect(await store.increment('k', WINDOW)).toEqual({ count: 1, resetAt: T0 + 2 * WINDOW });
  });

  it('starts a new window for an expired key even when no sweep has run since', async () => {
    const store = new MemoryCounterStore();
    vi.setSystemTime(T0 + WINDOW / 2);
    await store.increment('k', WINDOW);
    await store.increment('k', WINDOW);
    // A sweep happens here (a window since the store was made) while k is still live...
    vi.setSystemTime(T0 + WINDOW);
    await store.increment('other', WINDOW);
    // ...so when k expires, the next sweep is still far off: increment must see the expiry itself.
    vi.setSystemTime(T0 + WINDOW + WINDOW / 2);
    expect(await store.increment('k', WINDOW)).toEqual({ count: 1, resetAt: T0 + 2 * WINDOW + WINDOW / 2 });
  });

  it('reset forgets a key at once', async () => {
    const store = new MemoryCounterStore();
    await store.increment('k', WINDOW);
    await store.increment('other', WINDOW);
    await store.reset('k');
    expect((await store.get('k')).count).toBe(0);
    expect((await store.get('other')).count).toBe(1);
    expect((await store.increment('k', WINDOW)).count).toBe(1);
    await store.reset('never-seen');
  });

  it('returns copies: changing a result does not change the store', async () => {
    const store = new MemoryCounterStore();
    const first = await store.increment('k', WINDOW);
    first.count = 100;
    const got = await store.get('k');
    got.count = 100;
    expect((await store.get('k')).count).toBe(1);
  });

  it('drops expired windows so memory stays bounded', async () => {
    const store = new MemoryCounterStore();
    for (let i = 0; i < 50; i++) await store.increment(`old:${i}`, WINDOW);
    vi.setSystemTime(T0 + 2 * WINDOW);
    await store.increment('new', WINDOW);
    const windows = (store as unknown as { windows: Map<string, unknown> }).windows;
    expect([...windows.keys()]).toEqual(['new']);
  });
});

describe('tooManyRequests', () => {
  it('is a 429 RATE_LIMITED AppError with the seconds left, rounded up', () => {
    const error = tooManyRequests(T0 + 10_500);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toBe(ERRORS.RATE_LIMITED);
    expect(error.headers).toEqual({ 'retry-after': '11' });
  });

  it('never says less than one second', () => {
    expect(tooManyRequests(T0 + 1).headers['retry-after']).toBe('1');
    expect(tooManyRequests(T0).headers['retry-after']).toBe('1');
    expect(tooManyRequests(T0 - 5_000).headers['retry-after']).toBe('1');
  });
});

describe('RateLimiter.hit', () => {
  it('allows `limit` hits per window, then refuses with 429 and retry-after', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    for (let i = 0; i < 3; i++) await limiter.hit('k', 3, WINDOW);
    vi.advanceTimersByTime(10_500);
    const error = await thrown(limiter.hit('k', 3, WINDOW));
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    // 49.5 s left in the window, rounded up.
    expect(error.headers).toEqual({ 'retry-after': '50' });
    // Still refused while the window lasts.
    vi.advanceTimersByTime(49_000);
    expect((await thrown(limiter.hit('k', 3, WINDOW))).headers['retry-after']).toBe('1');
  });

  it('allows again once the window is over', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    await limiter.hit('k', 1, WINDOW);
    await thrown(limiter.hit('k', 1, WINDOW));
    vi.advanceTimersByTime(WINDOW);
    await expect(limiter.hit('k', 1, WINDOW)).resolves.toBeUndefined();
    await thrown(limiter.hit('k', 1, WINDOW));
  });

  it('limits each key on its own', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    await limiter.hit('a', 1, WINDOW);
    await thrown(limiter.hit('a', 1, WINDOW));
    await expect(limiter.hit('b', 1, WINDOW)).resolves.toBeUndefined();
  });

  it('a limit of zero refuses the first hit', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    expect((await thrown(limiter.hit('k', 0, WINDOW))).status).toBe(429);
  });
});

describe('RateLimiter.tryTake / take / clear', () => {
  it('slots are counted; past the limit none is given and the refusal is not counted', async () => {
    const store = new MemoryCounterStore();
    const limiter = new RateLimiter(store);
    expect(await limiter.tryTake('k', 2, WINDOW)).toMatchObject({ resetAt: T0 + WINDOW });
    expect(await limiter.tryTake('k', 2, WINDOW)).toBeDefined();
    for (let i = 0; i < 5; i++) expect(await limiter.tryTake('k', 2, WINDOW)).toBeUndefined();
    expect((await store.get('k')).count).toBe(2);
  });

  it('a released slot can be taken again', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    const slot = await limiter.tryTake('k', 1, WINDOW);
    expect(await limiter.tryTake('k', 1, WINDOW)).toBeUndefined();
    await slot!.release();
    expect(await limiter.tryTake('k', 1, WINDOW)).toBeDefined();
  });

  it('take answers 429 with the time left in the window of the used-up limit', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    await limiter.take(
      [
        { key: 'a', limit: 5 },
        { key: 'b', limit: 1 },
      ],
      WINDOW,
    );
    vi.advanceTimersByTime(15_000);
    const error = await thrown(
      limiter.take(
        [
          { key: 'a', limit: 5 },
          { key: 'b', limit: 1 },
        ],
        WINDOW,
      ),
    );
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.headers).toEqual({ 'retry-after': '45' });
  });

  it('clear lifts the limit at once; the window ending lifts it by itself', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore());
    await limiter.tryTake('k', 1, WINDOW);
    await limiter.clear('k');
    expect(await limiter.tryTake('k', 1, WINDOW)).toBeDefined();
    expect(await limiter.tryTake('k', 1, WINDOW)).toBeUndefined();
    vi.advanceTimersByTime(WINDOW);
    expect(await limiter.tryTake('k', 1, WINDOW)).toBeDefined();
  });
});

describe('RateLimiter over any CounterStore', () => {
  it('only speaks the CounterStore interface (so a shared store can replace memory)', async () => {
    const calls: string[] = [];
    const counts = new Map<string, number>();
    const store: CounterStore = {
      async get(key) {
        calls.push(`get ${key}`);
        return { count: counts.get(key) ?? 0, resetAt: T0 + 5_000 };
      },
      async increment(key, windowMs) {
        calls.push(`increment ${key} ${windowMs}`);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return { count: counts.get(key)!, resetAt: T0 + 5_000 };
      },
      async decrement(key) {
        calls.push(`decrement ${key}`);
        counts.set(key, (counts.get(key) ?? 0) - 1);
      },
      async reset(key) {
        calls.push(`reset ${key}`);
        counts.delete(key);
      },
    };
    const limiter = new RateLimiter(store);
    await limiter.hit('h', 1, 1234);
    const error = await thrown(limiter.hit('h', 1, 1234));
    expect(error.headers['retry-after']).toBe('5');
    await limiter.tryTake('r', 1, 99);
    expect(await limiter.tryTake('r', 1, 99)).toBeUndefined();
    await limiter.clear('r');
    expect(calls).toEqual(['increment h 1234', 'increment h 1234', 'increment r 99', 'increment r 99', 'decrement r', 'reset r']);
  });
});
