import { BoundedQueue } from '../bounded-queue.js';
import { AppError } from '../http/app-error.js';

/**
 * Image work of this process, one queue for post photos and profile icons: at most
 * `concurrency` images are decoded at once, at most `maxWaiting` wait for their turn, and beyond
 * that an upload is refused at once (503 with Retry-After) rather than holding memory and a
 * connection for minutes.
 *
 * WARNING: sharp runs on libuv's threadpool, which argon2 (sign-in) and file reads (/media)
 * share; each image in work holds up to POOL_THREADS_PER_IMAGE of its threads, so
 * `concurrency` must leave threads free for them (config.ts checks it).
 */

/** libuv threads one image in work may hold at once (image-pipeline.ts: the last step runs two encoders). */
export const POOL_THREADS_PER_IMAGE = 2;

/** How long a refused upload is told to wait: a full queue drains in a few seconds. */
export const IMAGE_QUEUE_RETRY_AFTER_SECONDS = 5;

export class ImageQueueFull extends AppError {
  readonly retryAfterSeconds = IMAGE_QUEUE_RETRY_AFTER_SECONDS;

  constructor() {
    super(503, 'IMAGE_QUEUE_FULL', undefined, { 'retry-after': String(IMAGE_QUEUE_RETRY_AFTER_SECONDS) });
    this.name = 'ImageQueueFull';
  }
}

export class ImageQueue extends BoundedQueue {
  constructor(concurrency: number, maxWaiting: number) {
    super(concurrency, maxWaiting, () => new ImageQueueFull());
  }
}
