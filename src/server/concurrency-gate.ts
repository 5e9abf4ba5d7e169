import pLimit, { type LimitFunction } from 'p-limit';

/**
 * At most `concurrency` tasks run at once (p-limit), first come, first served; up to
 * `maxWaiting` more wait for their turn, and beyond that a task is refused at once with the error
 * `refuse` makes, rather than holding memory and a connection while a backlog grows. Post search
 * and Download My Data each have one. (The image queue is not this: its waiters start by expected
 * finish, on lanes their cost picks, within an account's share: images/image-queue.ts.)
 */
export class ConcurrencyGate {
  private readonly limit: LimitFunction;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly refuse: () => Error,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('a gate needs at least one slot');
    this.limit = pLimit(concurrency);
  }

  /** Tasks running and waiting right now. */
  get size(): { active: number; waiting: number } {
    return { active: this.limit.activeCount, waiting: this.limit.pendingCount };
  }

  /** Runs `task` when a slot is free; refuses it (refuse()) when too many already wait. */
  run<T>(task: () => Promise<T>): Promise<T> {
    // p-limit queues a task, then starts it a moment later: running plus queued is what is taken.
    if (this.limit.activeCount + this.limit.pendingCount >= this.concurrency + this.maxWaiting) return Promise.reject(this.refuse());
    return this.limit(task);
  }
}
