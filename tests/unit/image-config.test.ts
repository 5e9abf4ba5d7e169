import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_QUEUE_LENGTH, imageWorkConfig, threadpoolSize } from '../../src/server/config.js';

describe('IMAGE_CONCURRENCY and IMAGE_QUEUE_LENGTH', () => {
  it('default: one image per core but one, never more than libuv threads minus 2; 16 may wait', () => {
    const config = imageWorkConfig({});
    expect(config.concurrency).toBe(Math.max(1, Math.min(os.availableParallelism() - 1, 4 - 2)));
    expect(config.queueLength).toBe(DEFAULT_IMAGE_QUEUE_LENGTH);
    // A bigger threadpool lets more images run, up to the cores.
    expect(imageWorkConfig({ UV_THREADPOOL_SIZE: '64' }).concurrency).toBe(Math.max(1, os.availableParallelism() - 1));
  });

  it('takes explicit values', () => {
    expect(imageWorkConfig({ IMAGE_CONCURRENCY: '2', IMAGE_QUEUE_LENGTH: '0' })).toEqual({ concurrency: 2, queueLength: 0 });
    expect(imageWorkConfig({ IMAGE_CONCURRENCY: '6', UV_THREADPOOL_SIZE: '8' }).concurrency).toBe(6);
  });

  it('refuses a concurrency that would leave sign-ins and media reads without threads, saying what to raise', () => {
    expect(() => imageWorkConfig({ IMAGE_CONCURRENCY: '3' })).toThrow(/UV_THREADPOOL_SIZE to at least 5/);
    expect(() => imageWorkConfig({ IMAGE_CONCURRENCY: '0' })).toThrow(/at least 1/);
    expect(() => imageWorkConfig({ IMAGE_QUEUE_LENGTH: '-1' })).toThrow(/IMAGE_QUEUE_LENGTH/);
  });

  it('reads the threadpool size as Node does', () => {
    expect(threadpoolSize({})).toBe(4);
    expect(threadpoolSize({ UV_THREADPOOL_SIZE: '16' })).toBe(16);
    expect(threadpoolSize({ UV_THREADPOOL_SIZE: 'x' })).toBe(4);
    expect(threadpoolSize({ UV_THREADPOOL_SIZE: '5000' })).toBe(1024);
  });
});
