import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoCache } from '../../src/server/cache/memo-cache.js';

describe('MemoCache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const counter = () => {
    let calls = 0;
    return { compute: async () => `answer ${++calls}`, calls: () => calls };
  };

  it('answers a repeated query from memory until ttlMs has passed', async () => {
    const cache = new MemoCache<string>(1000);
    const search = counter();
    expect(await cache.get('dorm', search.compute)).toBe('answer 1');
    vi.advanceTimersByTime(999);
    expect(await cache.get('dorm', search.compute)).toBe('answer 1');
    vi.advanceTimersByTime(1);
    expect(await cache.get('dorm', search.compute)).toBe('answer 2');
    expect(search.calls()).toBe(2);
  });

  it('keeps each query apart', async () => {
    const cache = new MemoCache<string>(1000);
    expect(await cache.get('dorm', async () => 'dorm posts')).toBe('dorm posts');
    expect(await cache.get('exam', async () => 'exam posts')).toBe('exam posts');
    expect(await cache.get('dorm', async () => 'recomputed')).toBe('dorm posts');
  });

  it('shares one search among simultaneous misses', async () => {
    const cache = new MemoCache<string>(1000);
    const search = counter();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('dorm', search.compute)));
    expect(answers).toEqual(Array(5).fill('answer 1'));
    expect(search.calls()).toBe(1);
  });

  it('does not remember a failed search', async () => {
    const cache = new MemoCache<string>(1000);
    await expect(cache.get('dorm', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('dorm', async () => 'back')).toBe('back');
  });

  it('delete() forgets one key at once', async () => {
    const cache = new MemoCache<string>(1000);
    await cache.get('dorm', async () => 'old dorm');
    await cache.get('exam', async () => 'old exam');
    cache.delete('dorm');
    expect(await cache.get('dorm', async () => 'new dorm')).toBe('new dorm');
    expect(await cache.get('exam', async () => 'new exam')).toBe('old exam');
  });

  it('clear() forgets everything at once (a post was created or deleted)', async () => {
    const cache = new MemoCache<string>(1000);
    const search = counter();
    await cache.get('dorm', search.compute);
    cache.clear();
    expect(await cache.get('dorm', search.compute)).toBe('answer 2');
  });

  it('holds at most maxEntries queries, dropping the least recently used', async () => {
    const cache = new MemoCache<string>(1000, 2);
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('a', async () => 'a2'); // a is now the most recently used
    await cache.get('c', async () => 'c1'); // evicts b
    expect(await cache.get('a', async () => 'a3')).toBe('a1');
    expect(await cache.get('b', async () => 'b2')).toBe('b2');
  });

  it('with ttlMs 0 it always searches', async () => {
    const cache = new MemoCache<string>(0);
    const search = counter();
    await cache.get('dorm', search.compute);
    await cache.get('dorm', search.compute);
    expect(search.calls()).toBe(2);
  });
});
