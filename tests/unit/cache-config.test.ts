import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';

describe('cache settings', () => {
  it('one time to live for every cache, a minute by default; 0 turns caching off', () => {
    expect(loadConfig({}).cacheTtlMs).toBe(60_000);
    expect(loadConfig({ CACHE_TTL_MS: '0' }).cacheTtlMs).toBe(0);
    expect(() => loadConfig({ CACHE_TTL_MS: '-1' })).toThrow('CACHE_TTL_MS must be a non-negative integer');
  });

  it('the cache holds 64 MiB unless told otherwise', () => {
    expect(loadConfig({}).cacheMaxBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ CACHE_MAX_MB: '8' }).cacheMaxBytes).toBe(8 * 1024 * 1024);
  });

  it.each(['FEED_CACHE_MS', 'SEARCH_CACHE_MS', 'READ_CACHE_MS'])('%s is refused, naming its replacement', (name) => {
    expect(() => loadConfig({ [name]: '1000' })).toThrow(`${name} is no longer read: set CACHE_TTL_MS instead`);
  });
});
