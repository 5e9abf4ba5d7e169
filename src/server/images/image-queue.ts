import { AppError } from '../http/app-error.js';
import { MAX_DECODE_BYTES } from './decode-cost.js';

/**
 * Image work of this process, one queue for post photos and profile icons: at most
 * `concurrency` images are decoded at once, plus `cheapLanes` more that only cheap uploads may
 * take; at most `maxWaiting` wait for their turn, and beyond that an upload is refused at once
 * (503 with Retry-After) rather than holding memory and a connection for minutes.
 *
 * Each upload comes with its expected cost (work-cost.ts workCost: CPU milliseconds of this
 * machine's worker, from the header) and decode memory (decode-cost.ts), which decide:
 * - its turn: waiting uploads start in order of arrival plus cost (earliest expected finish), so
 *   a phone photo is not left behind uploads that cost many times more, and a costly one is
 *   overtaken only by uploads that arrive within its own cost of it (never starved);
 * - its lane: a cheap upload (a phone JPEG) may also take a cheap lane, so it never waits for
 *   a costly upload in work (work is not interrupted: with one lane, a photo beside three
 *   uploads at the cap took 13 times its time alone). Costly ones take only the `concurrency`
 *   lanes, one after another there;
 * - the account's share: the uploads one account has running or waiting may together cost at
 *   most `accountShare`; one more is refused (429), so one account cannot fill the queue. An
 *   account's first upload always gets in (a single upload's cost is capped lower).
 *
 * WARNING: sharp runs on libuv's threadpool, which argon2 (sign-in) and file reads (/media)
 * share; each image in work holds up to POOL_THREADS_PER_IMAGE of its threads, so the lanes
 * must leave threads free for them (config.ts checks it).
 */

/** libuv threads one image in work may hold at once (image-pipeline.ts: the last step runs two encoders). */
export const POOL_THREADS_PER_IMAGE = 2;

/**
 * What a cheap lane takes: expected to cost at most this (a 12-MP baseline JPEG, the commonest
 * upload, is estimated 535 ms and takes ~300) ...
 */
export const CHEAP_WORK_MS = 600;
/** ... and to decode in at most this (a 12-MP JPEG: 34 MiB), so two uploads at once stay well under twice one's memory. */
export const CHEAP_DECODE_BYTES = MAX_DECODE_BYTES / 4;

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

/** What an upload is expected to cost: CPU milliseconds (work-cost.ts) and decode bytes (decode-cost.ts). */
export interface ImageWork {
  cost: number;
  memory: number;
}

/** Who an upload is for, and its expected cost. */
export interface ImageJob extends ImageWork {
  account: string;
}

export const isCheap = (work: ImageWork) => work.cost <= CHEAP_WORK_MS && work.memory <= CHEAP_DECODE_BYTES;

interface Waiter {
  cheap: boolean;
  /** Arrival time plus cost: the smallest starts first. */
  due: number;
  start: () => void;
}

/** Told how long each upload was in work (metrics/metrics.ts). */
export interface ImageQueueObserver {
  worked(seconds: number): void;
}

export interface ImageQueueOptions {
  /** Lanes only cheap uploads may take, beside the `concurrency` any upload may (isCheap). */
  cheapLanes?: number;
  accountShare?: number;
}

export class ImageQueue {
  private active = 0;
  /** Uploads in work that are not cheap: at most `concurrency`. */
  private costly = 0;
  private readonly waiting: Waiter[] = [];
  /** Cost of each account's uploads running or waiting. */
  private readonly held = new Map<string, number>();
  readonly cheapLanes: number;
  readonly accountShare: number;
  /** Set by the app that uses the queue (a test may make the queue itself). */
  observer: ImageQueueObserver | undefined;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    { cheapLanes = 0, accountShare = ACCOUNT_SHARE_MS }: ImageQueueOptions = {},
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('a queue needs at least one slot');
    this.cheapLanes = cheapLanes;
    this.accountShare = accountShare;
  }

  /** Uploads running and waiting right now. */
  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private canStart(cheap: boolean): boolean {
    return this.active < this.concurrency + this.cheapLanes && (cheap || this.costly < this.concurrency);
  }

  private take(cheap: boolean): void {
    this.active += 1;
    if (!cheap) this.costly += 1;
  }

  /** Starts the waiters, earliest due first, that a free lane will take. */
  private startWaiters(): void {
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i]!;
      if (!this.canStart(waiter.cheap)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(waiter.cheap);
      waiter.start();
    }
  }

  /** Runs `task` in its turn; refuses it at once when the account's share or the queue is full. */
  async run<T>(job: ImageJob, task: () => Promise<T>): Promise<T> {
    const cheap = isCheap(job);
    const held = this.held.get(job.account) ?? 0;
    if (held > 0 && held + job.cost > this.accountShare) throw new ImageShareUsed();
    if (!this.canStart(cheap) && this.waiting.length >= this.maxWaiting) throw new ImageQueueFull();
    this.held.set(job.account, held + job.cost);
    try {
      if (this.canStart(cheap)) {
        this.take(cheap);
      } else {
        // A finishing task starts the waiters its lane can take (startWaiters), counting them in.
        await new Promise<void>((start) => {
          const waiter = { cheap, due: performance.now() + job.cost, start };
          const at = this.waiting.findIndex((other) => other.due > waiter.due);
          this.waiting.splice(at === -1 ? this.waiting.length : at, 0, waiter);
        });
      }
      const started = performance.now();
      try {
        return await task();
      } finally {
        this.observer?.worked((performance.now() - started) / 1000);
        this.active -= 1;
        if (!cheap) this.costly -= 1;
        this.startWaiters();
      }
    } finally {
      const left = (this.held.get(job.account) ?? 0) - job.cost;
      if (left > 0) this.held.set(job.account, left);
      else this.held.delete(job.account);
    }
  }
}
