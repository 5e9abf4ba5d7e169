import { AppError } from '../http/app-error.js';

/**
 * Image work of this process, one queue for post photos and profile icons: at most
 * `concurrency` images are decoded at once, at most `maxWaiting` wait for their turn, and beyond
 * that an upload is refused at once (503 with Retry-After) rather than holding memory and a
 * connection for minutes.
 *
 * Each upload comes with its expected cost (decode-cost.ts workCost: CPU milliseconds of this
 * machine's worker, from the header), which decides two things:
 * - its turn: waiting uploads start in order of arrival plus cost (earliest expected finish), so
 *   a phone photo is not left behind uploads that cost many times more, and a costly one is
 *   overtaken only by uploads that arrive within its own cost of it (never starved);
 * - the account's share: the uploads one account has running or waiting may together cost at
 *   most `accountShare`; one more is refused (429), so one account cannot fill the queue. An
 *   account's first upload always gets in (a single upload's cost is capped lower).
 *
 * WARNING: sharp runs on libuv's threadpool, which argon2 (sign-in) and file reads (/media)
 * share; each image in work holds up to POOL_THREADS_PER_IMAGE of its threads, so
 * `concurrency` must leave threads free for them (config.ts checks it).
 */

/** libuv threads one image in work may hold at once (image-pipeline.ts: the last step runs two encoders). */
export const POOL_THREADS_PER_IMAGE = 2;

/** How long a refused upload is told to wait: a full queue drains in a few seconds. */
export const IMAGE_QUEUE_RETRY_AFTER_SECONDS = 5;

/** What one account's uploads in the queue may cost together: two uploads at the cap, or more cheaper ones. */
export const ACCOUNT_SHARE_MS = 2_000;

export class ImageQueueFull extends AppError {
  readonly retryAfterSeconds = IMAGE_QUEUE_RETRY_AFTER_SECONDS;

  constructor() {
    super(503, 'IMAGE_QUEUE_FULL', undefined, { 'retry-after': String(IMAGE_QUEUE_RETRY_AFTER_SECONDS) });
    this.name = 'ImageQueueFull';
  }
}

/** The account's share of the queue is taken by its own uploads still in work. */
export class ImageShareUsed extends AppError {
  constructor() {
    super(429, 'UPLOADS_IN_PROGRESS', undefined, { 'retry-after': String(IMAGE_QUEUE_RETRY_AFTER_SECONDS) });
    this.name = 'ImageShareUsed';
  }
}

/** Who an upload is for and what it is expected to cost (decode-cost.ts workCost). */
export interface ImageJob {
  account: string;
  cost: number;
}

interface Waiter {
  /** Arrival time plus cost: the smallest starts first. */
  due: number;
  start: () => void;
}

export class ImageQueue {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  /** Cost of each account's uploads running or waiting. */
  private readonly held = new Map<string, number>();

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    readonly accountShare = ACCOUNT_SHARE_MS,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('a queue needs at least one slot');
  }

  /** Uploads running and waiting right now. */
  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Runs `task` in its turn; refuses it at once when the account's share or the queue is full. */
  async run<T>(job: ImageJob, task: () => Promise<T>): Promise<T> {
    const held = this.held.get(job.account) ?? 0;
    if (held > 0 && held + job.cost > this.accountShare) throw new ImageShareUsed();
    if (this.active >= this.concurrency && this.waiting.length >= this.maxWaiting) throw new ImageQueueFull();
    this.held.set(job.account, held + job.cost);
    try {
      if (this.active < this.concurrency) {
        this.active += 1;
      } else {
        // The finishing task hands its slot straight to the next waiter: `active` stays put.
        await new Promise<void>((start) => {
          const waiter = { due: performance.now() + job.cost, start };
          const at = this.waiting.findIndex((other) => other.due > waiter.due);
          this.waiting.splice(at === -1 ? this.waiting.length : at, 0, waiter);
        });
      }
      try {
        return await task();
      } finally {
        const next = this.waiting.shift();
        if (next) next.start();
        else this.active -= 1;
      }
    } finally {
      const left = (this.held.get(job.account) ?? 0) - job.cost;
      if (left > 0) this.held.set(job.account, left);
      else this.held.delete(job.account);
    }
  }
}
