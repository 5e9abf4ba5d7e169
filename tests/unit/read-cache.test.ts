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

  it('a region may keep its own time to live; 0 turns that region off, not the others', async () => {
    const { clock, cache, compute, computed } = setUp(1_000_000, 1000);
    const estimates = cache.region('estimates', { ttlMs: 60_000 });
    const off = cache.region('off', { staleAfter: () => [], ttlMs: 0 });
    const shared = cache.region('shared', { staleAfter: () => [] });
    await estimates.get('k', compute('e1'));
    await shared.get('k', compute('s1'));
    clock.advance(1000);
    expect(await estimates.get('k', compute('e2'))).toBe('e1');
    expect(await shared.get('k', compute('s2'))).toBe('s2');
    clock.advance(59_000);
    expect(await estimates.get('k', compute('e3'))).toBe('e3');
    const before = computed();
    await off.get('k', compute(1));
    await off.get('k', compute(2));
    expect(computed() - before).toBe(2);
  });

  it('suspended, it computes every read, except in a region no change makes stale', async () => {
    const { cache, compute, computed } = setUp();
    const shared = cache.region('shared', { staleAfter: () => [] });
    const estimates = cache.region('estimates', {});
    await estimates.get('k', compute('kept'));
    cache.suspend();
    expect(cache.caching).toBe(false);
    await shared.get('k', compute('s1'));
    await shared.get('k', compute('s2'));
    expect(computed()).toBe(3);
    // Suspending forgets everything, then the estimates are remembered again.
    expect(await estimates.get('k', compute('e1'))).toBe('e1');
    expect(await estimates.get('k', compute('e2'))).toBe('e1');
    cache.resume();
    await shared.get('k', compute('s3'));
    expect(await shared.get('k', compute('s4'))).toBe('s3');
  });

  it('forget() forgets one key at once, and drops its computation in flight', async () => {
    const { cache, compute } = setUp();
    const region = cache.region('r', { staleAfter: () => [] });
    await region.get('dorm', compute('old dorm'));
    await region.get('exam', compute('old exam'));
    region.forget('dorm');
    expect(await region.get('dorm', compute('new dorm'))).toBe('new dorm');
    expect(await region.get('exam', compute('new exam'))).toBe('old exam');
    const before = deferred<string>();
    const reading = region.get('late', () => before.promise);
    region.forget('late');
    before.resolve('read before');
    await reading;
    expect(await region.get('late', compute('after'))).toBe('after');
  });

  it('with owners: a change names owners, and forgets every entry of each, in that region only', async () => {
    const { cache, compute } = setUp();
    const byToken = cache.region('by token', {
      ownerOf: (value: { owner: string }) => value.owner,
      staleAfter: (c) => (c.kind === 'profile' ? [c.userId] : []),
    });
    // Keyed by what the other region's owners are: untouched.
    const plain = cache.region('plain', { staleAfter: () => [] });
    await byToken.get('t1', compute({ owner: 'bob-id', n: 1 }));
    await byToken.get('t2', compute({ owner: 'bob-id', n: 2 }));
    await byToken.get('t3', compute({ owner: 'carol-id', n: 3 }));
    await plain.get('bob-id', compute('plain'));
    cache.changed(profile('bob'));
    expect(await byToken.get('t1', compute({ owner: 'bob-id', n: 11 }))).toEqual({ owner: 'bob-id', n: 11 });
    expect(await byToken.get('t2', compute({ owner: 'bob-id', n: 12 }))).toEqual({ owner: 'bob-id', n: 12 });
    expect(await byToken.get('t3', compute({ owner: 'carol-id', n: 13 }))).toEqual({ owner: 'carol-id', n: 3 });
    expect(await plain.get('bob-id', compute('plain again'))).toBe('plain');
  });

  it('an entry with several owners goes when any of them changes, and leaves every list when it goes', async () => {
    const { cache, compute } = setUp();
    const pages = cache.region('pages', {
      ownerOf: (value: { owners: string[] }) => value.owners,
      staleAfter: (c) => (c.kind === 'profile' ? [c.userId] : []),
    });
    await pages.get('p1', compute({ owners: ['ann-id', 'bob-id'], n: 1 }));
    await pages.get('p2', compute({ owners: ['carol-id'], n: 2 }));
    cache.changed(profile('bob'));
    expect(await pages.get('p1', compute({ owners: ['dave-id'], n: 11 }))).toEqual({ owners: ['dave-id'], n: 11 });
    // p1 is dave's alone now: ann's list no longer holds it.
    pages.forgetOwner('ann-id');
    expect(await pages.get('p1', compute({ owners: ['dave-id'], n: 21 }))).toEqual({ owners: ['dave-id'], n: 11 });
    expect(await pages.get('p2', compute({ owners: ['carol-id'], n: 22 }))).toEqual({ owners: ['carol-id'], n: 2 });
  });

  it('forgetOwner() drops every computation in flight of the region: whose it is, is known only at its end', async () => {
    const { cache, compute } = setUp();
    const byToken = cache.region('by token', { ownerOf: (value: string) => value.split(' ')[0]!, staleAfter: () => [] });
    const other = cache.region('other', { staleAfter: () => [] });
    const reading = deferred<string>();
    const otherReading = deferred<string>();
    const read = byToken.get('t1', () => reading.promise);
    const otherRead = other.get('k', () => otherReading.promise);
    byToken.forgetOwner('bob');
    reading.resolve('bob old');
    otherReading.resolve('kept');
    await Promise.all([read, otherRead]);
    expect(await byToken.get('t1', compute('bob new'))).toBe('bob new');
    expect(await other.get('k', compute('recomputed'))).toBe('kept');
  });

  it('an owner’s evicted entries leave its list: forgetting it later forgets only what it has now', async () => {
    const { cache, compute } = setUp(250);
    const byToken = cache.region('by token', { ownerOf: (value: string) => value.split(' ')[0]!, staleAfter: () => [], bytes: () => 100 });
    await byToken.get('t1', compute('bob 1'));
    await byToken.get('t2', compute('carol 2'));
    await byToken.get('t3', compute('carol 3')); // 300 bytes > 250: t1 goes
    await byToken.get('t1', compute('dave 1')); // t1 again, now dave's (t2 goes)
    byToken.forgetOwner('bob');
    expect(await byToken.get('t1', compute('recomputed'))).toBe('dave 1');
  });

  it('refuses a second region of the same name (they would answer each other’s keys)', () => {
    const { cache } = setUp();
    cache.region('r', { staleAfter: () => [] });
    expect(() => cache.region('r', { staleAfter: () => [] })).toThrow('already has a region "r"');
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
