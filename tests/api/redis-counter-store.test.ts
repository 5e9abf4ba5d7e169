import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/server/http/app-error.js';
import { MemoryCounterStore, RateLimiter, type CounterStore } from '../../src/server/http/rate-limiter.js';
import { RedisCounterStore } from '../../src/server/http/redis-counter-store.js';
import { deleteRedisKeys, noRedis, redisTestPrefix, TEST_REDIS_URL } from '../helpers/services.js';

/**
 * Rate-limit counters: the Redis store (shared by every process) must behave exactly like the
 * in-memory one, so one contract runs over both; then what only Redis can do (two connections,
 * one count). The Redis of TEST_REDIS_URL, keys under a prefix unique to this run, and only
 * those deleted afterwards.
 */
const REDIS_URL = TEST_REDIS_URL ?? '';
const skip = noRedis;
const RUN = redisTestPrefix('counters');

let admin: Redis | undefined;
const opened: RedisCounterStore[] = [];
/** A store on its own connection; every store of one prefix sees the same counters. */
function redisStore(prefix = RUN): RedisCounterStore {
  const store = new RedisCounterStore(REDIS_URL, prefix);
  opened.push(store);
  return store;
}

beforeAll(async () => {
  if (skip) return;
  admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  expect(await admin.ping()).toBe('PONG');
});
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => undefined);
  if (!admin) return;
  await deleteRedisKeys(admin, RUN);
  await admin.quit();
});

let serial = 0;
const key = (name: string) => `${name}:${(serial += 1)}`;
/** Redis recomputes resetAt from PTTL and its clock, so allow a little drift. */
const DRIFT = 40;

/**
 * A store call with the times around it. A Redis store's resetAt is the reply's PTTL added to
 * Date.now() when the reply is read, so it may be late by up to the time the call took (more on a
 * loaded machine): comparisons of two resetAts allow for that, not for a fixed guess of it.
 */
async function timed<T>(call: () => Promise<T>): Promise<{ value: T; before: number; after: number; took: number }> {
  const before = Date.now();
  const value = await call();
  const after = Date.now();
  return { value, before, after, took: after - before };
}

/**
 * The least Retry-After (whole seconds) of a window of `windowMs` whose first hit came after
 * `started`: what is left of it now. 59 of 60 when the calls are quick, less on a stalled machine.
 */
function secondsLeftOf(windowMs: number, started: number): number {
  return Math.ceil((windowMs - DRIFT - (Date.now() - started)) / 1000);
}

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

/**
 * Makes `ms` pass for one key, as far as its store can tell, without waiting for it: the memory
 * store reads Date.now() (faked for the test that needs it), Redis counts down the key's PTTL.
 * Sleeping instead made a test's checks depend on how long the machine stalled between them.
 */
type Later = (key: string, ms: number) => Promise<void>;

/** Memory: moves the faked Date on. */
const memoryLater: Later = async (_key, ms) => {
  vi.setSystemTime(Date.now() + ms);
};

/** Redis: shortens the key's time to live from the test's own connection; past its end, waits until Redis has expired it. */
const redisLater: Later = async (key, ms) => {
  const name = `${RUN}${key}`;
  const left = await admin!.pttl(name);
  if (left > ms) {
    await admin!.pexpire(name, left - ms);
    return;
  }
  await admin!.pexpire(name, 1);
  // Bounds only the wait for Redis to expire it (it does so on the next access after 1 ms).
  for (let i = 0; i < 200 && (await admin!.exists(name)) === 1; i++) await sleep(5);
};

const backends: Array<{ name: string; make: () => CounterStore; later: Later; fakeDate: boolean }> = [
  { name: 'MemoryCounterStore', make: () => new MemoryCounterStore(), later: memoryLater, fakeDate: true },
  // Without TEST_REDIS_URL, the memory half still runs.
  ...(skip ? [] : [{ name: 'RedisCounterStore', make: () => redisStore(), later: redisLater, fakeDate: false }]),
];

describe.each(backends)('counter store contract: $name', ({ make, later, fakeDate }) => {
  let store: CounterStore;
  beforeAll(() => {
    store = make();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an unknown key has no hits and no live window', async () => {
    expect(await store.get(key('unknown'))).toEqual({ count: 0, resetAt: 0 });
  });

  it('counts hits in one window that ends windowMs after the first hit', async () => {
    const k = key('count');
    const first = await timed(() => store.increment(k, 60_000));
    expect(first.value.count).toBe(1);
    expect(first.value.resetAt).toBeGreaterThanOrEqual(first.before + 60_000 - DRIFT);
    expect(first.value.resetAt).toBeLessThanOrEqual(first.after + 60_000 + DRIFT);
    const second = await store.increment(k, 60_000);
    const third = await timed(() => store.increment(k, 60_000));
    expect([second.count, third.value.count]).toEqual([2, 3]);
    expect(Math.abs(third.value.resetAt - first.value.resetAt)).toBeLessThanOrEqual(Math.max(first.took, third.took) + DRIFT);
    const now = await timed(() => store.get(k));
    expect(now.value.count).toBe(3);
    expect(Math.abs(now.value.resetAt - first.value.resetAt)).toBeLessThanOrEqual(Math.max(first.took, now.took) + DRIFT);
  });

  it('get does not count', async () => {
    const k = key('get');
    await store.increment(k, 60_000);
    for (let i = 0; i < 3; i++) expect((await store.get(k)).count).toBe(1);
    expect((await store.increment(k, 60_000)).count).toBe(2);
  });

  it('keys count separately', async () => {
    const a = key('a');
    const b = key('b');
    await store.increment(a, 60_000);
    await store.increment(a, 60_000);
    expect((await store.increment(b, 60_000)).count).toBe(1);
    expect((await store.get(a)).count).toBe(2);
  });

  it('the window is fixed: later hits do not extend it, and once it ends counting starts again', async () => {
    if (fakeDate) vi.useFakeTimers({ toFake: ['Date'] });
    const k = key('expiry');
    const WINDOW = 60_000;
    const PASSED = 30_000;
    await store.increment(k, WINDOW);
    await later(k, PASSED);
    const second = await store.increment(k, WINDOW);
    expect(second.count).toBe(2);
    // Still the first hit's window, with what is left of it; a restarted one would have the whole WINDOW.
    expect(second.resetAt - Date.now()).toBeLessThanOrEqual(WINDOW - PASSED + DRIFT);
    expect(second.resetAt).toBeGreaterThan(Date.now());
    await later(k, WINDOW);
    expect(await store.get(k)).toEqual({ count: 0, resetAt: 0 });
    const before = Date.now();
    const restarted = await store.increment(k, WINDOW);
    expect(restarted.count).toBe(1);
    expect(restarted.resetAt).toBeGreaterThanOrEqual(before + WINDOW - DRIFT);
  });

  it('reset forgets the key; a new hit starts a new window; resetting an unknown key is fine', async () => {
    const k = key('reset');
    await store.increment(k, 60_000);
    await store.increment(k, 60_000);
    await store.reset(k);
    expect(await store.get(k)).toEqual({ count: 0, resetAt: 0 });
    const fresh = await store.increment(k, 500);
    const after = Date.now();
    expect(fresh.count).toBe(1);
    // The new window has the new length, not what was left of the old one.
    expect(fresh.resetAt).toBeLessThanOrEqual(after + 500 + DRIFT);
    await expect(store.reset(key('never-counted'))).resolves.toBeUndefined();
  });

  it('drives the RateLimiter: the hit past the limit is a 429 with Retry-After', async () => {
    const limiter = new RateLimiter(store);
    const k = key('limiter');
    const started = Date.now();
    for (let i = 0; i < 3; i++) await limiter.hit(k, 3, 60_000);
    const error = await thrown(limiter.hit(k, 3, 60_000));
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(secondsLeftOf(60_000, started));
    expect(Number(error.headers['retry-after'])).toBeLessThanOrEqual(60);

    // tryTake/release/clear: a slot counts, a released one is given back, clearing forgets.
    const f = key('failures');
    const first = await limiter.tryTake(f, 2, 60_000);
    expect(await limiter.tryTake(f, 2, 60_000)).toBeDefined();
    expect(await limiter.tryTake(f, 2, 60_000)).toBeUndefined();
    // The refused attempt was taken back: the count is the limit, not beyond it.
    expect((await store.get(f)).count).toBe(2);
    await first!.release();
    expect((await store.get(f)).count).toBe(1);
    expect(await limiter.tryTake(f, 2, 60_000)).toBeDefined();
    await limiter.clear(f);
    expect((await store.get(f)).count).toBe(0);
  });

  it('of 30 simultaneous attempts at a limit of 10, exactly 10 get a slot', async () => {
    const limiter = new RateLimiter(store);
    const k = key('race');
    const slots = await Promise.all(Array.from({ length: 30 }, () => limiter.tryTake(k, 10, 60_000)));
    expect(slots.filter(Boolean)).toHaveLength(10);
    expect((await store.get(k)).count).toBe(10);
  });

  it('takeFirst: of 30 simultaneous attempts at limits of 5 then 10, exactly 15 get a slot, in order; the rest a 429', async () => {
    const limiter = new RateLimiter(store);
    const [first, second] = [key('first'), key('second')];
    const limits = [
      { key: first, limit: 5 },
      { key: second, limit: 10 },
    ];
    const answers = await Promise.allSettled(Array.from({ length: 30 }, () => limiter.takeFirst(limits, 60_000)));
    const taken = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value.index] : []));
    expect(taken.filter((index) => index === 0)).toHaveLength(5);
    expect(taken.filter((index) => index === 1)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 'rejected')).toHaveLength(15);
    expect([(await store.get(first)).count, (await store.get(second)).count]).toEqual([5, 10]);
    const error = await thrown(limiter.takeFirst(limits, 60_000));
    expect(error.status).toBe(429);
    expect(Number(error.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('take: all slots or none; the used-up limit answers 429 and the others are given back', async () => {
    const limiter = new RateLimiter(store);
    const [wide, narrow] = [key('wide'), key('narrow')];
    const started = Date.now();
    await limiter.take(
      [
        { key: wide, limit: 5 },
        { key: narrow, limit: 1 },
      ],
      60_000,
    );
    const error = await thrown(
      limiter.take(
        [
          { key: wide, limit: 5 },
          { key: narrow, limit: 1 },
        ],
        60_000,
      ),
    );
    expect(error.status).toBe(429);
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(secondsLeftOf(60_000, started));
    expect((await store.get(wide)).count).toBe(1);
    expect((await store.get(narrow)).count).toBe(1);
  });

  it('decrement never goes below zero and never revives an ended window', async () => {
    const k = key('decrement');
    await store.decrement(k);
    expect((await store.get(k)).count).toBe(0);
    await store.increment(k, 60_000);
    await store.decrement(k);
    await store.decrement(k);
    expect((await store.get(k)).count).toBe(0);
    expect((await store.increment(k, 60_000)).count).toBe(1);
  });
});

describe.skipIf(skip)('RedisCounterStore across connections', () => {
  it('two stores on two connections see and add to the same counts', async () => {
    const one = redisStore();
    const two = redisStore();
    const k = key('shared');
    expect((await one.increment(k, 60_000)).count).toBe(1);
    expect((await two.increment(k, 60_000)).count).toBe(2);
    expect((await one.increment(k, 60_000)).count).toBe(3);
    expect((await two.get(k)).count).toBe(3);
    await two.reset(k);
    expect((await one.get(k)).count).toBe(0);
  });

  it('hits racing on both connections are each counted exactly once', async () => {
    const one = redisStore();
    const two = redisStore();
    const k = key('race');
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).increment(k, 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await one.get(k)).count).toBe(40);
  });

  it('a limit holds across processes: hits alternating between two limiters get a 429 after the limit in total', async () => {
    const a = new RateLimiter(redisStore());
    const b = new RateLimiter(redisStore());
    const k = key('login:fail');
    for (let i = 0; i < 4; i++) expect(await (i % 2 ? b : a).tryTake(k, 4, 60_000)).toBeDefined();
    expect(await a.tryTake(k, 4, 60_000)).toBeUndefined();
    expect(await b.tryTake(k, 4, 60_000)).toBeUndefined();
    expect((await thrown(b.hit(k, 4, 60_000))).code).toBe('RATE_LIMITED');
  });

  it('keeps each counter under its prefix with an expiry no longer than the window', async () => {
    const store = redisStore();
    const k = key('stored');
    await store.increment(k, 5_000);
    await store.increment(k, 5_000);
    expect(await admin!.get(`${RUN}${k}`)).toBe('2');
    const ttl = await admin!.pttl(`${RUN}${k}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    // Another prefix (another deployment on the same Redis) counts separately.
    const other = redisStore(`${RUN}other:`);
    expect((await other.get(k)).count).toBe(0);
    expect((await other.increment(k, 5_000)).count).toBe(1);
    expect((await store.get(k)).count).toBe(2);
  });

  it('a counter Redis cannot count is an error, never "no hits" (the limit must not switch off)', async () => {
    const store = redisStore();
    const limiter = new RateLimiter(store);
    const text = key('corrupt-text');
    await admin!.set(`${RUN}${text}`, 'not-a-number');
    await expect(store.increment(text, 60_000)).rejects.toThrow();
    await expect(store.get(text)).rejects.toThrow();
    await expect(limiter.hit(text, 1, 60_000)).rejects.toThrow();
    await expect(limiter.tryTake(text, 1, 60_000)).rejects.toThrow();
    await expect(store.decrement(text)).rejects.toThrow();
    const hash = key('corrupt-hash');
    await admin!.hset(`${RUN}${hash}`, 'field', '1');
    await expect(store.get(hash)).rejects.toThrow(/WRONGTYPE/);
    await expect(store.increment(hash, 60_000)).rejects.toThrow(/WRONGTYPE/);
    // reset() clears it, and counting works again.
    await store.reset(text);
    expect((await store.increment(text, 60_000)).count).toBe(1);
  });

  it('close() quits its connection: it leaves the server, and the store is unusable afterwards', async () => {
    const name = `dormboard-close-${randomBytes(4).toString('hex')}`;
    const url = new URL(REDIS_URL);
    url.searchParams.set('connectionName', name);
    const store = new RedisCounterStore(url.toString(), RUN);
    await store.increment(key('close'), 60_000);
    const connections = async () =>
      String(await admin!.client('LIST'))
        .split('\n')
        .filter((line: string) => line.includes(` name=${name} `)).length;
    expect(await connections()).toBe(1);
    await store.close();
    // QUIT is answered before the server drops the client; give it a moment.
    for (let i = 0; i < 20 && (await connections()) > 0; i++) await sleep(25);
    expect(await connections()).toBe(0);
    await expect(store.get(key('close'))).rejects.toThrow();
  });
});

// No Redis needed: nothing listens on port 1.
describe('a Redis that cannot be reached', () => {
  it('fails each count and reports the outage once, not once per reconnect', async () => {
    const lost: Error[] = [];
    const store = new RedisCounterStore('redis://127.0.0.1:1', 'unreachable:', (error) => lost.push(error));
    try {
      // Each command gives up after its reconnect attempts: three commands, many failed connects.
      for (let i = 0; i < 3; i += 1) await expect(store.get('k')).rejects.toThrow();
      expect(lost).toHaveLength(1);
      expect(lost[0]!.message).toMatch(/ECONNREFUSED/);
    } finally {
      store.disconnect();
    }
  });
});
