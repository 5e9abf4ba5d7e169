import { describe, expect, it } from 'vitest';
import { ImageQueue, ImageQueueFull } from '../../src/server/images/image-queue.js';

/** A task the test finishes by hand, so nothing depends on timing. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const done = new Promise<T>((resolve) => (open = resolve));
  return { done, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ImageQueue', () => {
  it('never runs more than `concurrency` tasks at once, and starts waiters first come, first served', async () => {
    const queue = new ImageQueue(2, 10);
    const gates = Array.from({ length: 6 }, () => gate());
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const results = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await g.done;
        running -= 1;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.size).toEqual({ active: 2, waiting: 4 });
    // Finish out of order: the freed slot goes to the longest waiter each time.
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates.slice(2)) {
      g.open();
      await tick();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(queue.size).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses at once, with a Retry-After, when `maxWaiting` tasks already wait; a refused task never runs', async () => {
    const queue = new ImageQueue(1, 2);
    const first = gate();
    const ran: string[] = [];
    const task = (name: string, wait?: Promise<void>) => () => {
      ran.push(name);
      return wait ?? Promise.resolve();
    };
    const running = queue.run(task('running', first.done));
    const waiting = [queue.run(task('waiting 1')), queue.run(task('waiting 2'))];
    const refused = await queue.run(task('refused')).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ImageQueueFull);
    expect((refused as ImageQueueFull).retryAfterSeconds).toBeGreaterThan(0);
    first.open();
    await Promise.all([running, ...waiting]);
    expect(ran).toEqual(['running', 'waiting 1', 'waiting 2']);
    // Room again once the queue drained.
    await expect(queue.run(async () => 'later')).resolves.toBe('later');
  });

  it('a failing task frees its slot and its error reaches only its caller', async () => {
    const queue = new ImageQueue(1, 1);
    const failing = queue.run(async () => {
      throw new Error('corrupt image');
    });
    const next = queue.run(async () => 'next');
    await expect(failing).rejects.toThrow('corrupt image');
    await expect(next).resolves.toBe('next');
    expect(queue.size).toEqual({ active: 0, waiting: 0 });
  });

  it('with no waiting room, a busy queue refuses every other task', async () => {
    const queue = new ImageQueue(1, 0);
    const g = gate();
    const running = queue.run(() => g.done);
    await expect(queue.run(async () => 'x')).rejects.toBeInstanceOf(ImageQueueFull);
    g.open();
    await running;
  });

  it('needs at least one slot', () => {
    expect(() => new ImageQueue(0, 5)).toThrow();
  });
});
