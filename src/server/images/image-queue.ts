/**
 * Image work of this process, one queue for post photos and profile icons: at most
 * `concurrency` images are decoded at once, at most `maxWaiting` wait for their turn (first
 * come, first served), and beyond that an upload is refused at once (ImageQueueFull → 503 with
 * Retry-After) rather than holding memory and a connection for minutes.
 *
 * WARNING: sharp runs on libuv's threadpool, which argon2 (sign-in) and file reads (/media)
 * share; each image in work holds up to POOL_THREADS_PER_IMAGE of its threads, so
 * `concurrency` must leave threads free for them (config.ts checks it).
 */

/** libuv threads one image in work may hold at once (image-pipeline.ts: the last step runs two encoders). */
export const POOL_THREADS_PER_IMAGE = 2;

export class ImageQueueFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('image queue is full');
    this.name = 'ImageQueueFull';
  }
}

/** How long a refused upload is told to wait: a full queue drains in a few seconds. */
export const IMAGE_QUEUE_RETRY_AFTER_SECONDS = 5;

export class ImageQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('image concurrency must be at least 1');
  }

  /** Images in work and waiting right now. */
  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Runs `task` when a slot is free; throws ImageQueueFull when too many already wait. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw new ImageQueueFull(IMAGE_QUEUE_RETRY_AFTER_SECONDS);
      // The finishing task hands its slot straight to the first waiter: `active` stays put.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
