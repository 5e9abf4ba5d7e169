import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE_QUEUE_LENGTH, imageWorkConfig, threadpoolSize } from '../../src/server/config.js';

describe('IMAGE_CONCURRENCY and IMAGE_QUEUE_LENGTH', () => {
  it('default: one image per core but one, each holding up to 2 libuv threads, 2 threads always left over; 16 may wait', () => {
    const config = imageWorkConfig({});
    // Node's default pool of 4: (4 - 2) / 2 = 1 image at a time, and no room for a cheap lane.
    expect(config).toEqual({ concurrency: 1, cheapLanes: 0, queueLength: DEFAULT_IMAGE_QUEUE_LENGTH });
    // npm start's 6: one image of any cost and a cheap lane beside it.
    expect(imageWorkConfig({ UV_THREADPOOL_SIZE: '6' })).toMatchObject({ concurrency: 1, cheapLanes: 1 });
    // A bigger threadpool lets more images run, up to the cores, and keeps room for the cheap lane.
    expect(imageWorkConfig({ UV_THREADPOOL_SIZE: '64' })).toMatchObject({
      concurrency: Math.max(1, os.availableParallelism() - 1),
      cheapLanes: 1,
    });
  });

  it('takes explicit values; the cheap lane only when the pool has 2 threads more', () => {
    expect(imageWorkConfig({ IMAGE_CONCURRENCY: '1', IMAGE_QUEUE_LENGTH: '0' })).toEqual({ concurrency: 1, cheapLanes: 0, queueLength: 0 });
    expect(imageWorkConfig({ IMAGE_CONCURRENCY: '3', UV_THREADPOOL_SIZE: '8' })).toMatchObject({ concurrency: 3, cheapLanes: 0 });
    expect(imageWorkConfig({ IMAGE_CONCURRENCY: '3', UV_THREADPOOL_SIZE: '10' })).toMatchObject({ concurrency: 3, cheapLanes: 1 });
  });

  it('refuses a concurrency that would leave sign-ins and media reads without threads, saying what to raise', () => {
    expect(() => imageWorkConfig({ IMAGE_CONCURRENCY: '2' })).toThrow(/UV_THREADPOOL_SIZE to at least 6/);
    expect(() => imageWorkConfig({ IMAGE_CONCURRENCY: '4', UV_THREADPOOL_SIZE: '8' })).toThrow(/at least 10/);
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
