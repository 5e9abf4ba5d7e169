import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../src/server/concurrency-gate.js';

class Busy extends Error {}

/** A task the test finishes when it wants, recording when it started. */
function task(name: string, started: string[]) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name);
    fail = reject;
  });
  return {
    run: () => {
      started.push(name);
      return done;
    },
    finish,
    fail,
  };
}

/** Lets every started promise continuation (and p-limit's) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyGate', () => {
  it('runs at most `concurrency` at once, the rest in order of arrival, and refuses beyond `maxWaiting`', async () => {
    const gate = new ConcurrencyGate(2, 2, () => new Busy());
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => task(name, started));
    const runs = tasks.map((t) => gate.run(t.run));
    await expect(gate.run(task('e', started).run)).rejects.toBeInstanceOf(Busy);
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(gate.size).toEqual({ active: 2, waiting: 2 });
    tasks[1]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    // A place in the queue came free: one more may wait.
    const f = task('f', started);
    const fRun = gate.run(f.run);
    await expect(gate.run(task('g', started).run)).rejects.toBeInstanceOf(Busy);
    tasks[0]!.finish();
    tasks[2]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'f']);
    tasks[3]!.finish();
    f.finish();
    expect(await Promise.all([...runs, fRun])).toEqual(['a', 'b', 'c', 'd', 'f']);
    expect(gate.size).toEqual({ active: 0, waiting: 0 });
  });

  it('a failed task gives its slot back', async () => {
    const gate = new ConcurrencyGate(1, 0, () => new Busy());
    const started: string[] = [];
    const failing = task('a', started);
    const run = gate.run(failing.run);
    await expect(gate.run(task('b', started).run)).rejects.toBeInstanceOf(Busy);
    failing.fail(new Error('disk full'));
    await expect(run).rejects.toThrow('disk full');
    await settle();
    const next = task('c', started);
    const nextRun = gate.run(next.run);
    next.finish();
    expect(await nextRun).toBe('c');
  });

  it('needs at least one slot', () => {
    expect(() => new ConcurrencyGate(0, 1, () => new Busy())).toThrow('at least one slot');
  });
});
