import { setImmediate as nextTurn } from 'node:timers/promises';
import { BoundedQueue } from '../bounded-queue.js';
import { AppError } from '../http/app-error.js';

/** A search the server will not run now: the gate's queue is full, or its statement timed out. */
export const searchBusy = () => new AppError(503, 'SEARCH_BUSY', undefined, { 'retry-after': '1' });

/**
 * At most `concurrency` searches run at once in this process; up to `queue` more wait their
 * turn, and the next one is refused at once (503 SEARCH_BUSY) instead of piling up.
 *
 * WARNING: the embedded database runs one statement at a time (in its own thread), in the order
 * asked. Sixteen searches in flight put sixteen statements ahead of the home feed's query;
 * through this gate (two at a time there) it waits behind two at most.
 *
 * WARNING: PGlite in the caller's own thread (tests and tools; the server gives it a thread of
 * its own) answers a query without any I/O, so a search's statements, and the next search the
 * slot passes to, follow each other as promise continuations that never give the event loop a
 * turn: measured, the home feed waited 1.4–4.2 s behind 16 searchers while none
 * of its requests were even read. Each search therefore starts on a new turn of the event loop
 * (and PostSearch takes one between its statements).
 */
export class SearchGate extends BoundedQueue {
  constructor(concurrency: number, queue: number) {
    super(concurrency, queue, searchBusy);
  }

  override run<T>(work: () => Promise<T>): Promise<T> {
    return super.run(async () => {
      await nextTurn();
      return work();
    });
  }
}
