import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/server/auth/auth.queries.js';
import { SessionCache } from '../../src/server/auth/session-cache.js';

/** A session of user `id`, named after it. */
const created = new Date();
const user = (id: string) => ({
  user: { id, username: id } as UserRow,
  sessionId: `s-${id}`,
  session: { epoch: 0, createdAt: created, expiresAt: created },
});
const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);

describe('SessionCache', () => {
  it('remembers a session read while nothing was forgotten', () => {
    const cache = new SessionCache(60_000);
    const generation = cache.generation;
    cache.set('a', user('u1'), inAnHour(), generation);
    expect(cache.get('a')).toEqual(user('u1'));
  });

  it('does not store a read that overlapped signing out (it may have seen the ended session)', () => {
    const cache = new SessionCache(60_000);
    const generation = cache.generation;
    cache.forgetSession('a');
    cache.set('a', user('u1'), inAnHour(), generation);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not store a read that overlapped signing out everywhere or a profile change', () => {
    const cache = new SessionCache(60_000);
    const generation = cache.generation;
    cache.forgetUser('u1');
    cache.set('a', user('u1'), inAnHour(), generation);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgetUser drops every session of that user and no other', () => {
    const cache = new SessionCache(60_000);
    for (const [hash, id] of [
      ['a', 'u1'],
      ['b', 'u1'],
      ['c', 'u2'],
    ] as const)
      cache.set(hash, user(id), inAnHour(), cache.generation);
    cache.forgetUser('u1');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.user.id).toBe('u2');
  });

  it('never serves a session past its expiry', () => {
    const cache = new SessionCache(60_000);
    cache.set('a', user('u1'), new Date(Date.now() - 1), cache.generation);
    expect(cache.get('a')).toBeUndefined();
  });
});
