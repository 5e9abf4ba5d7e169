import { describe, expect, it } from 'vitest';
import { Changes, type Change } from '../../src/server/cache/changes.js';
import { ALL, ReadCache } from '../../src/server/cache/read-cache.js';
import { TestClock } from '../helpers/test-app.js';

const post = (postId: string, authorUsername = 'alice'): Change => ({ kind: 'post', postId, authorId: 'a1', authorUsername });
const profile = (username: string): Change => ({ kind: 'profile', userId: `${username}-id`, username });

function setUp(maxBytes = 1_000_000, ttlMs = 60_000) {
  const clock = new TestClock();
  const cache = new ReadCache({ maxBytes, ttlMs, now: clock.now });
  let computed = 0;
  const compute =
    <T>(value: T) =>
    async () => {
      computed += 1;
      return value;
    };
  return { clock, cache, compute, computed: () => computed };
}

/** A computation the test finishes when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ReadCache', () => {
  it('answers a second read from memory until its time to live has passed', async () => {
    const { clock, cache, compute, computed } = setUp(1_000_000, 1000);
    const users = cache.region('users', { staleAfter: () => [] });
    expect(await users.get('bob', compute('v1'))).toBe('v1');
    clock.advance(999);
    expect(await users.get('bob', compute('v2'))).toBe('v1');
    clock.advance(1);
    expect(await users.get('bob', compute('v3'))).toBe('v3');
    expect(computed()).toBe(2);
  });

  it('a time to live of 0 turns the cache off', async () => {
    const { cache, compute, computed } = setUp(1_000_000, 0);
    const off = cache.region('off', { staleAfter: () => [] });
    expect(cache.caching).toBe(false);
    await off.get('k', compute(1));
    await off.get('k', compute(2));
    expect(computed()).toBe(2);
  });

  it('forgets exactly the keys a change names, in the regions that name them', async () => {
    const { cache, compute } = setUp();
    const users = cache.region('users', { staleAfter: (c) => (c.kind === 'profile' ? [c.username] : []) });
    const posts = cache.region('posts', { staleAfter: (c) => (c.kind === 'post' ? [c.postId] : []) });
    await users.get('bob', compute('bob v1'));
    await users.get('carol', compute('carol v1'));
    await posts.get('bob', compute('post v1'));
    cache.changed(profile('bob'));
    expect(await users.get('bob', compute('bob v2'))).toBe('bob v2');
    expect(await users.get('carol', compute('carol v2'))).toBe('carol v1');
    // Same key, other region: untouched.
    expect(await posts.get('bob', compute('post v2'))).toBe('post v1');
  });

  it('a change that makes every entry stale empties the region, not the others', async () => {
    const { cache, compute } = setUp();
    const related = cache.region('related', { staleAfter: (c) => (c.kind === 'post' ? ALL : []) });
    const users = cache.region('users', { staleAfter: () => [] });
    await related.get('p1', compute('r1'));
    await related.get('p2', compute('r2'));
    await users.get('bob', compute('bob'));
    cache.changed(post('p9'));
    expect(await related.get('p1', compute('r1 new'))).toBe('r1 new');
    expect(await related.get('p2', compute('r2 new'))).toBe('r2 new');
    expect(await users.get('bob', compute('bob new'))).toBe('bob');
  });

  it('simultaneous misses share one computation', async () => {
    const { cache } = setUp();
    const region = cache.region('r', { staleAfter: () => [] });
    const slow = deferred<string>();
    let calls = 0;
    const compute = () => {
      calls += 1;
      return slow.promise;
    };
    const reads = [region.get('k', compute), region.get('k', compute), region.get('k', compute)];
    slow.resolve('once');
    expect(await Promise.all(reads)).toEqual(['once', 'once', 'once']);
    expect(calls).toBe(1);
  });

  it('a change during a computation drops its result: it may have read the old data', async () => {
    const { cache, compute } = setUp();
    const users = cache.region('users', { staleAfter: (c) => (c.kind === 'profile' ? [c.username] : []) });
    const before = deferred<string>();
    const reading = users.get('bob', () => before.promise);
    cache.changed(profile('bob'));
    before.resolve('read before the change');
    expect(await reading).toBe('read before the change');
    expect(await users.get('bob', compute('after'))).toBe('after');
  });

  it('the same holds when the change makes the whole region stale', async () => {
    const { cache, compute } = setUp();
    const feed = cache.region('feed', { staleAfter: (c) => (c.kind === 'post' ? ALL : []) });
    const before = deferred<string>();
    const reading = feed.get('', () => before.promise);
    cache.changed(post('p1'));
    before.resolve('old window');
    await reading;
    expect(await feed.get('', compute('new window'))).toBe('new window');
  });

  it('a failed computation is not remembered', async () => {
    const { cache, compute } = setUp();
    const region = cache.region('r', { staleAfter: () => [] });
    await expect(region.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await region.get('k', compute('works now'))).toBe('works now');
  });

  it('holds at most maxBytes, dropping the least recently used first', async () => {
    const { cache, compute } = setUp(250);
    const region = cache.region('r', { staleAfter: () => [], bytes: () => 100 });
    await region.get('a', compute('a'));
    await region.get('b', compute('b'));
    await region.get('a', compute('a again')); // a is now the most recently used
    await region.get('c', compute('c')); // 300 bytes > 250: b goes
    expect(cache.bytes).toBeLessThanOrEqual(250);
    expect(await region.get('a', compute('a recomputed'))).toBe('a');
    expect(await region.get('b', compute('b recomputed'))).toBe('b recomputed');
  });

  it('clear() forgets everything', async () => {
    const { cache, compute } = setUp();
    const region = cache.region('r', { staleAfter: () => [] });
    await region.get('k', compute('old'));
    cache.clear();
    expect(await region.get('k', compute('new'))).toBe('new');
  });
});

describe('Changes', () => {
  it('tells every subscriber, in order', () => {
    const changes = new Changes();
    const heard: string[] = [];
    changes.subscribe((change) => heard.push(`first ${change.kind}`));
    changes.subscribe((change) => heard.push(`second ${change.kind}`));
    changes.deliver(post('p1'));
    expect(heard).toEqual(['first post', 'second post']);
  });
});
