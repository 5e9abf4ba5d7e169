/**
 * At most `concurrency` tasks run at once; up to `maxWaiting` more wait for their turn, first
 * come, first served; beyond that a task is refused at once with the error `refuse` makes,
 * rather than holding memory and a connection while a backlog grows. The image queue and the
 * search gate are both this.
 */
export class BoundedQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly refuse: () => Error,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('a queue needs at least one slot');
  }

  /** Tasks running and waiting right now. */
  get size(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Runs `task` when a slot is free; throws refuse() when too many already wait. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw this.refuse();
      // The finishing task hands its slot straight to the first waiter, so nobody overtakes the
      // queue: `active` stays put.
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
