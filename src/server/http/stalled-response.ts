import type { ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';

/**
 * Closes the connection of a streamed response whose reader has stopped reading: once the
 * response has waited `ms` for the connection to take what was written (no 'drain' since it
 * first had to wait), it is destroyed, which ends whatever feeds it (an export frees its slot).
 * A reader that still reads is never cut off: the response drains each time the connection has
 * taken what it held (the kernel's send buffer wakes the writer once about a third of it is
 * free: on a fast link up to ~1.4 MB, on a slow one far less, its buffer growing with the
 * link). A writer with nothing to write yet (a slow storage read) is not a stalled reader.
 *
 * Looked at every tenth of `ms` (at most every half second); the cut comes between two and one
 * looks short of `ms` after the response first had to wait, so that with the moment the
 * connection's buffers took to fill after the reader's last read (~0.2 s), it comes within `ms`
 * of that read (measured: 29.5 s with the default 30 s).
 *
 * The wait is measured on `now` (the app's clock), so a test moves it on instead of hoping its
 * reader's pauses and the looks here keep to real time on a loaded machine.
 */
export function destroyWhenStalled(response: ServerResponse, ms: number, now: Clock): void {
  const every = Math.min(500, Math.max(5, Math.floor(ms / 10)));
  let waitingSince: number | undefined;
  const look = () => {
    if (!response.writableNeedDrain) {
      waitingSince = undefined;
      return;
    }
    const at = now();
    waitingSince ??= at;
    if (at - waitingSince >= ms - 2 * every) response.destroy();
  };
  const timer = setInterval(look, every);
  // Only live requests keep it: a server that closes is not held by it.
  timer.unref();
  response.on('drain', () => (waitingSince = undefined));
  response.once('close', () => clearInterval(timer));
}
