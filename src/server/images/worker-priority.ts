import fs from 'node:fs';
import os from 'node:os';

/**
 * Image work runs at a low CPU priority, so readers never wait for it: on a machine with
 * few cores, one decode takes a whole core, and the event loop (every request, the embedded
 * database) must still get the CPU the moment it needs it. libvips does the decoding and
 * encoding in its own threads, named "libvips worker"; Linux lets a single thread be reniced
 * (setpriority on its thread id), so those threads, and only those, are set to nice 10.
 * Elsewhere (no /proc) this does nothing.
 */
/**
 * nice 10 weighs ~1/10 of a normal thread in Linux's scheduler: reads still get the CPU first,
 * while uploads keep moving when the machine is busy. At 19 (~1/70) a loaded machine starved
 * them for tens of seconds, past the request timeout.
 */
export const IMAGE_WORK_NICE = 10;
const WORKER_NAME = 'libvips worker';
const TASKS = '/proc/self/task';

/** Thread ids already set, so a scan costs a few reads of /proc. */
const lowered = new Set<number>();

export function lowerImageWorkerPriority(): void {
  let tids: string[];
  try {
    tids = fs.readdirSync(TASKS);
  } catch {
    return;
  }
  const alive = new Set<number>();
  for (const name of tids) {
    const tid = Number(name);
    alive.add(tid);
    if (lowered.has(tid)) continue;
    try {
      if (fs.readFileSync(`${TASKS}/${name}/comm`, 'utf8').trim() !== WORKER_NAME) continue;
      os.setPriority(tid, IMAGE_WORK_NICE);
      lowered.add(tid);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  // Thread ids are reused by new threads: forget the ones that ended.
  for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
}

/**
 * Runs `work` with its libvips threads at a low priority. libvips starts (or reuses) them
 * once a pipeline runs, so they are looked for every 50 ms while the work lasts.
 */
export async function atLowPriority<T>(work: () => Promise<T>): Promise<T> {
  lowerImageWorkerPriority();
  const timer = setInterval(lowerImageWorkerPriority, 50);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
