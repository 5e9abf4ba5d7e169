import fs from 'node:fs';

/**
 * A process's memory as the kernel counts it (Linux): the memory tests' measure. Peak RSS is the
 * high-water mark (VmHWM in /proc/<pid>/status), reset by writing 5 to /proc/<pid>/clear_refs.
 */
const procStatus = (pid: number) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
const kib = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);

export const rssMiB = (pid: number) => kib(procStatus(pid), 'VmRSS') / 1024;
export const peakMiB = (pid: number) => kib(procStatus(pid), 'VmHWM') / 1024;
export const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** The RSS once it has stopped moving (the previous request's garbage collected or not). */
export async function settledRss(pid: number): Promise<number> {
  let last = rssMiB(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = rssMiB(pid);
    if (Math.abs(now - last) < 1) return now;
    last = now;
  }
  return last;
}

/** Linux only, and only where this process may reset another's high-water mark. */
export function canMeasureRss(): boolean {
  try {
    resetPeak(process.pid);
    return true;
  } catch {
    return false;
  }
}
