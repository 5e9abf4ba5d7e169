import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHEAP_DECODE_BYTES, CHEAP_WORK_MS, ImageQueue, ImageQueueFull, ImageShareUsed } from '../../src/server/images/image-queue.js';

/** A task the test finishes by hand, so nothing depends on timing. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const done = new Promise<T>((resolve) => (open = resolve));
  return { done, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The queue orders waiting uploads by arrival time (performance.now()) plus cost: a test that
 * says "arrives N ms later" fakes that clock and moves it on exactly N ms, since a real sleep
 * on a loaded machine can last far longer and change the order.
 */
function fakeArrivalClock() {
  vi.useFakeTimers({ toFake: ['performance'] });
}
afterEach(() => {
  vi.useRealTimers();
});

let accounts = 0;
/** An upload of an account of its own, of the given expected cost (ms), decoded in 10 MB. */
const job = (cost = 100, account = `account ${(accounts += 1)}`, memory = 10_000_000) => ({ account, cost, memory });

describe('ImageQueue', () => {
  it('never runs more than `concurrency` tasks at once, and starts waiters first come, first served', async () => {
    const queue = new ImageQueue(2, 10);
    const gates = Array.from({ length: 6 }, () => gate());
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const results = gates.map((g, i) =>
      queue.run(job(), async () => {
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
    const running = queue.run(job(), task('running', first.done));
    const waiting = [queue.run(job(), task('waiting 1')), queue.run(job(), task('waiting 2'))];
    const refused = await queue.run(job(), task('refused')).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ImageQueueFull);
    expect((refused as ImageQueueFull).retryAfterSeconds).toBeGreaterThan(0);
    first.open();
    await Promise.all([running, ...waiting]);
    expect(ran).toEqual(['running', 'waiting 1', 'waiting 2']);
    // Room again once the queue drained.
    await expect(queue.run(job(), async () => 'later')).resolves.toBe('later');
  });

  it('a failing task frees its slot and its error reaches only its caller', async () => {
    const queue = new ImageQueue(1, 1);
    const failing = queue.run(job(), async () => {
      throw new Error('corrupt image');
    });
    const next = queue.run(job(), async () => 'next');
    await expect(failing).rejects.toThrow('corrupt image');
    await expect(next).resolves.toBe('next');
    expect(queue.size).toEqual({ active: 0, waiting: 0 });
  });

  it('with no waiting room, a busy queue refuses every other task', async () => {
    const queue = new ImageQueue(1, 0);
    const g = gate();
    const running = queue.run(job(), () => g.done);
    await expect(queue.run(job(), async () => 'x')).rejects.toBeInstanceOf(ImageQueueFull);
    g.open();
    await running;
  });

  it('starts a cheap upload before costlier ones that came just before it, but never before one that has waited longer than the difference', async () => {
    fakeArrivalClock();
    const queue = new ImageQueue(1, 10);
    const running = gate();
    const started: string[] = [];
    const task = (name: string) => async () => void started.push(name);
    const first = queue.run(job(), () => running.done);
    const costly = [queue.run(job(900), task('costly 1')), queue.run(job(900), task('costly 2'))];
    const photo = queue.run(job(300), task('photo'));
    // Arrives 60 ms after a waiting upload expected to cost 50 ms more: that one is due first.
    const early = queue.run(job(50), task('early'));
    vi.advanceTimersByTime(60);
    const late = queue.run(job(1), task('late'));
    running.open();
    await Promise.all([first, ...costly, photo, early, late]);
    expect(started).toEqual(['early', 'late', 'photo', 'costly 1', 'costly 2']);
  });

  it("an account's uploads may cost at most its share together; others still get in, and the share comes back as they finish", async () => {
    const queue = new ImageQueue(1, 10, { accountShare: 2_000 });
    const gates = [gate(), gate()];
    const greedy = [queue.run(job(1_500, 'greedy'), () => gates[0]!.done), queue.run(job(400, 'greedy'), () => gates[1]!.done)];
    // A third would take it over 2,000: refused at once with 429 and a Retry-After, and never run.
    let ran = false;
    const refused = await queue.run(job(200, 'greedy'), async () => void (ran = true)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImageShareUsed);
    expect((refused as ImageShareUsed).status).toBe(429);
    expect((refused as ImageShareUsed).headers['retry-after']).toBeDefined();
    expect(ran).toBe(false);
    // Another account's upload is queued (and runs before the greedy one's second: it costs less).
    const order: string[] = [];
    const other = queue.run(job(300, 'other'), async () => void order.push('other'));
    expect(queue.size).toEqual({ active: 1, waiting: 2 });
    gates[0]!.open();
    await other;
    expect(order).toEqual(['other']);
    gates[1]!.open();
    await Promise.all(greedy);
    // Its share is back.
    await expect(queue.run(job(1_900, 'greedy'), async () => 'again')).resolves.toBe('again');
  });

  it("an account's first upload always gets in, whatever its cost", async () => {
    const queue = new ImageQueue(1, 10, { accountShare: 100 });
    await expect(queue.run(job(5_000, 'big'), async () => 'ran')).resolves.toBe('ran');
  });

  describe('a cheap lane', () => {
    const costly = (account?: string) => job(CHEAP_WORK_MS + 1, account);
    const cheap = (account?: string) => job(CHEAP_WORK_MS, account);

    it('takes a cheap upload while a costly one is in work; a costly one waits for the costly one, even with the cheap lane free', async () => {
      const queue = new ImageQueue(1, 10, { cheapLanes: 1 });
      const running = gate();
      const started: string[] = [];
      const task = (name: string, wait?: Promise<void>) => async () => {
        started.push(name);
        await wait;
      };
      const first = queue.run(costly(), task('costly 1', running.done));
      const second = queue.run(costly(), task('costly 2'));
      await tick();
      expect(started).toEqual(['costly 1']);
      expect(queue.size).toEqual({ active: 1, waiting: 1 });
      const photoDone = gate();
      const photo = queue.run(cheap(), task('photo', photoDone.done));
      await tick();
      expect(started).toEqual(['costly 1', 'photo']);
      expect(queue.size).toEqual({ active: 2, waiting: 1 });
      // The photo finishes first: its lane stays empty, as the costly one cannot take it.
      photoDone.open();
      await photo;
      expect(queue.size).toEqual({ active: 1, waiting: 1 });
      running.open();
      await Promise.all([first, second]);
      expect(started).toEqual(['costly 1', 'photo', 'costly 2']);
      expect(queue.size).toEqual({ active: 0, waiting: 0 });
    });

    it('is not for an upload cheap in time but large to decode', async () => {
      const queue = new ImageQueue(1, 10, { cheapLanes: 1 });
      const running = gate();
      const first = queue.run(costly(), () => running.done);
      const large = queue.run(job(100, undefined, CHEAP_DECODE_BYTES + 1), async () => 'large');
      await tick();
      expect(queue.size).toEqual({ active: 1, waiting: 1 });
      running.open();
      await expect(large).resolves.toBe('large');
      await first;
    });

    it('two cheap uploads take both lanes; a costly one takes the first lane freed, before cheaper ones that came long after it', async () => {
      fakeArrivalClock();
      const queue = new ImageQueue(1, 10, { cheapLanes: 1 });
      const gates = [gate(), gate()];
      const started: string[] = [];
      const task = (name: string) => async () => void started.push(name);
      const photos = gates.map((g) => queue.run(cheap(), () => g.done));
      const waiting = queue.run(costly(), task('costly'));
      await tick();
      expect(queue.size).toEqual({ active: 2, waiting: 1 });
      // Due after the costly one (it arrives more than the difference in cost later).
      vi.advanceTimersByTime(20);
      const later = queue.run(job(CHEAP_WORK_MS - 1), task('later photo'));
      gates[1]!.open();
      await Promise.all([photos[1], waiting, later]);
      expect(started).toEqual(['costly', 'later photo']);
      gates[0]!.open();
      await photos[0];
    });

    it('never runs more than `concurrency` costly uploads, nor more than `concurrency` + `cheapLanes` in all', async () => {
      const queue = new ImageQueue(2, 20, { cheapLanes: 1 });
      const g = gate();
      const results = [queue.run(costly(), () => g.done), queue.run(costly(), () => g.done), queue.run(costly(), () => g.done)];
      await tick();
      expect(queue.size).toEqual({ active: 2, waiting: 1 });
      results.push(
        queue.run(cheap(), () => g.done),
        queue.run(cheap(), () => g.done),
      );
      await tick();
      expect(queue.size).toEqual({ active: 3, waiting: 2 });
      g.open();
      await Promise.all(results);
      expect(queue.size).toEqual({ active: 0, waiting: 0 });
    });
  });

  it('needs at least one slot', () => {
    expect(() => new ImageQueue(0, 5)).toThrow();
  });
});
