import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/server/auth/auth.queries.js';
import { SessionCache, type SessionOwner } from '../../src/server/auth/session-cache.js';
import type { Change } from '../../src/server/cache/changes.js';
import { ReadCache } from '../../src/server/cache/read-cache.js';
import { TestClock } from '../helpers/test-app.js';

/** A session of user `id`, named after it. */
const created = new Date();
const user = (id: string): SessionOwner => ({
  user: { id, username: id } as UserRow,
  sessionId: `s-${id}`,
  session: { epoch: 0, createdAt: created, expiresAt: created },
});

const TTL = 60_000;

/** A session cache in a read cache of its own, and reads that count how often they ask the database. */
function setUp(ttlMs = TTL) {
  const clock = new TestClock();
  const cache = new ReadCache({ maxBytes: 1_000_000, ttlMs: 1000, now: clock.now });
  const sessions = new SessionCache(cache, ttlMs);
  let reads = 0;
  const read = (owner: SessionOwner | undefined) => async () => {
    reads += 1;
    return owner;
  };
  return { clock, cache, sessions, read, reads: () => reads };
}

/** A read the test finishes when it wants. */
function held(owner: SessionOwner) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    read: async () => {
      await done;
      return owner;
    },
    finish,
  };
}

const userChange = (kind: 'profile' | 'account-deleted' | 'suspension', userId: string): Change => ({ kind, userId, username: userId });

describe('SessionCache (a region of the read cache)', () => {
  it('remembers a session for its time to live, then reads it again', async () => {
    const { clock, sessions, read, reads } = setUp();
    expect(await sessions.get('a', read(user('u1')))).toEqual(user('u1'));
    clock.advance(TTL - 1);
    expect(await sessions.get('a', read(user('u2')))).toEqual(user('u1'));
    clock.advance(1);
    expect(await sessions.get('a', read(user('u2')))).toEqual(user('u2'));
    expect(reads()).toBe(2);
  });

  it('keeps its own time to live, not the cache’s', async () => {
    const { clock, sessions, read } = setUp();
    await sessions.get('a', read(user('u1')));
    clock.advance(1000);
    expect(await sessions.get('a', read(user('u2')))).toEqual(user('u1'));
  });

  it('remembers nothing for a token without a live session', async () => {
    const { sessions, read, reads } = setUp();
    expect(await sessions.get('a', read(undefined))).toBeUndefined();
    expect(await sessions.get('a', read(user('u1')))).toEqual(user('u1'));
    expect(reads()).toBe(2);
  });

  it('with a time to live of 0 (PostgreSQL) it always reads', async () => {
    const { sessions, read, reads } = setUp(0);
    await sessions.get('a', read(user('u1')));
    await sessions.get('a', read(user('u1')));
    expect(reads()).toBe(2);
  });

  it('remembers nothing while the cache is suspended (it may be missing changes)', async () => {
    const { cache, sessions, read, reads } = setUp();
    cache.suspend();
    await sessions.get('a', read(user('u1')));
    await sessions.get('a', read(user('u1')));
    expect(reads()).toBe(2);
  });

  it.each([
    ['signing out (it may have seen the ended session)', (sessions: SessionCache) => sessions.forgetSession('a')],
    ['signing out everywhere (its user is not known until it ends)', (sessions: SessionCache) => sessions.forgetUser('u1')],
  ])('does not store a read that overlapped %s', async (_, forget) => {
    const { sessions, read } = setUp();
    const before = held(user('u1'));
    const reading = sessions.get('a', before.read);
    forget(sessions);
    before.finish();
    expect(await reading).toEqual(user('u1'));
    expect(await sessions.get('a', read(user('u2')))).toEqual(user('u2'));
  });

  it.each(['profile', 'account-deleted', 'suspension'] as const)('does not store a read that overlapped a change (%s)', async (kind) => {
    const { cache, sessions, read } = setUp();
    const before = held(user('u1'));
    const reading = sessions.get('a', before.read);
    cache.changed(userChange(kind, 'u1'));
    before.finish();
    await reading;
    expect(await sessions.get('a', read(user('u2')))).toEqual(user('u2'));
  });

  it('forgetUser drops every session of that user and no other', async () => {
    const { sessions, read } = setUp();
    for (const [hash, id] of [
      ['a', 'u1'],
      ['b', 'u1'],
      ['c', 'u2'],
    ] as const)
      await sessions.get(hash, read(user(id)));
    sessions.forgetUser('u1');
    expect(await sessions.get('a', read(user('new')))).toEqual(user('new'));
    expect(await sessions.get('b', read(user('new')))).toEqual(user('new'));
    expect(await sessions.get('c', read(user('new')))).toEqual(user('u2'));
  });

  it('forgetSession drops that session and no other of its user', async () => {
    const { sessions, read } = setUp();
    await sessions.get('a', read(user('u1')));
    await sessions.get('b', read(user('u1')));
    sessions.forgetSession('a');
    expect(await sessions.get('a', read(user('new')))).toEqual(user('new'));
    expect(await sessions.get('b', read(user('new')))).toEqual(user('u1'));
  });

  it.each(['profile', 'account-deleted', 'suspension'] as const)(
    'a %s change forgets every session of that user and no other',
    async (kind) => {
      const { cache, sessions, read } = setUp();
      await sessions.get('a', read(user('u1')));
      await sessions.get('b', read(user('u1')));
      await sessions.get('c', read(user('u2')));
      cache.changed(userChange(kind, 'u1'));
      expect(await sessions.get('a', read(user('new')))).toEqual(user('new'));
      expect(await sessions.get('b', read(user('new')))).toEqual(user('new'));
      expect(await sessions.get('c', read(user('new')))).toEqual(user('u2'));
    },
  );

  it('other changes leave sessions alone', async () => {
    const { cache, sessions, read } = setUp();
    await sessions.get('a', read(user('u1')));
    cache.changed({ kind: 'post', postId: 'p1', authorId: 'u1', authorUsername: 'u1' });
    cache.changed({ kind: 'follow', followerId: 'u1', followerUsername: 'u1', targetId: 'u2', targetUsername: 'u2' });
    expect(await sessions.get('a', read(user('new')))).toEqual(user('u1'));
  });
});
