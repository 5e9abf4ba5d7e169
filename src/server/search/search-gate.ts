import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../http/app-error.js';

/**
 * At most `concurrency` searches run at once in this process; up to `queue` more wait their
 * turn, first come first served, and the next one is refused at once (503 SEARCH_BUSY) instead
 * of piling up.
 *
 * WARNING: on the embedded database every query runs on the server's own thread, one at a
 * time, in the order asked. Sixteen searches in flight put sixteen statements ahead of the home
 * feed's query; through this gate (one at a time there) it waits behind one at most.
 *
 * WARNING: PGlite answers a query without any I/O, so a search's statements, and the next
 * search the slot passes to, follow each other as promise continuations that never give the
 * event loop a turn: measured, the home feed waited 1.4–4.2 s behind 16 searchers while none
 * of its requests were even read. Each search therefore starts on a new turn of the event loop
 * (and PostSearch takes one between its statements).
 */
export class SearchGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw new AppError(503, 'SEARCH_BUSY', undefined, { 'retry-after': '1' });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      await nextTurn();
      return await work();
    } finally {
      // The slot passes straight to the next in line, so nobody can overtake the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
