import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ForeignLoadGate,
  foreignCores,
  splitTicks,
  parseMachineBusy,
  parseProcessTicks,
  type LoadReading,
  type ProcessTicks,
} from '../../bench/foreign-load.js';

describe('reading /proc', () => {
  it("counts the machine's processes' busy ticks: user, nice and system", () => {
    // user nice system idle iowait irq softirq steal guest guest_nice
    const stat = 'cpu  100 5 40 9000 70 3 2 1 0 0\ncpu0 50 2 20 4500 35 1 1 0 0 0\n';
    expect(parseMachineBusy(stat)).toBe(100 + 5 + 40);
  });

  it('refuses what is not /proc/stat', () => {
    expect(() => parseMachineBusy('intr 1 2 3')).toThrow(/not \/proc\/stat/);
  });

  it("reads a process's parent, name, and ticks with those of its children it waited for", () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const line = '4242 (node (bench)) S 4000 4242 4242 0 -1 4194304 10 0 0 0 120 30 400 50 20 0 7 0';
    expect(parseProcessTicks(line)).toEqual({ pid: 4242, ppid: 4000, comm: 'node (bench)', ticks: 120 + 30 + 400 + 50 });
  });
});

describe("the bench's own ticks", () => {
  const proc = (pid: number, ppid: number, ticks: number, comm = 'node'): ProcessTicks => ({ pid, ppid, comm, ticks });
  const machine = [
    proc(1, 0, 1000, 'systemd'),
    proc(2, 0, 3, 'kthreadd'), // the kernel's threads: network and disk work for everyone
    proc(20, 2, 9, 'ksoftirqd/0'),
    proc(100, 1, 50), // the bench
    proc(101, 100, 300), // its server
    proc(102, 101, 7, 'chromium'), // a grandchild: Chromium started by a child
    proc(200, 1, 900, 'vitest'), // a neighbour's test run
    proc(201, 200, 800, 'chromium'), // and its browser
    proc(300, 1, 40, 'postgres'), // PostgreSQL's postmaster and a backend: serving the bench
    proc(301, 300, 60, 'postgres'),
    { ...proc(400, 1, 70, 'chromium'), marked: true }, // a browser the bench started, left to init by its launcher
    proc(401, 400, 30, 'chromium'), // and its renderer
  ];

  const sum = (ticks: Map<number, number>) => [...ticks.values()].reduce((a, b) => a + b, 0);

  it("are the ticks of the bench, everything it started, PostgreSQL and the kernel's threads", () => {
    const { own, others } = splitTicks(machine, 100);
    expect(sum(own)).toBe(50 + 300 + 7 + 40 + 60 + 3 + 9 + 70 + 30);
    expect([...others.keys()]).toEqual(['systemd (1)', 'vitest (200)', 'chromium (201)']);
  });

  it("never count a neighbour's processes, however they are named", () => {
    expect(sum(splitTicks(machine, 200).own)).toBe(900 + 800 + 40 + 60 + 3 + 9 + 70 + 30);
  });
});

describe('foreign cores between two readings', () => {
  const at = (atMs: number, busy: number, own: Array<[number, number]>): LoadReading => ({ atMs, busy, own: new Map(own) });

  it("is the machine's busy time less the bench's, in CPUs", () => {
    // 2 s; 300 ticks busy (at 100 per second), 100 of them the bench's: 200 ticks = 1 CPU for 2 s.
    expect(foreignCores(at(0, 1000, [[1, 500]]), at(2000, 1300, [[1, 600]]), 100)).toBeCloseTo(1, 6);
  });

  it('is zero for a bench that was all the machine did', () => {
    expect(foreignCores(at(0, 1000, [[1, 500]]), at(1000, 1150, [[1, 650]]), 100)).toBe(0);
  });

  it("does not count a process of the bench that exited as the rest of the machine's work", () => {
    // The server (pid 2, 5,000 ticks) exits; the bench (pid 1) has not counted it among its children yet.
    const before = at(0, 10_000, [
      [1, 500],
      [2, 5000],
    ]);
    expect(foreignCores(before, at(1000, 10_020, [[1, 520]]), 100)).toBe(0);
  });

  it('counts a process of the bench that started in between from zero', () => {
    const after = at(1000, 1100, [
      [1, 500],
      [9, 100],
    ]);
    expect(foreignCores(at(0, 1000, [[1, 500]]), after, 100)).toBe(0);
  });
});

/** A machine whose neighbour is busy during the listed spans (ms), at 1.5 CPUs; the bench itself adds nothing. */
function scriptedMachine(busySpans: Array<[number, number]>, stepMs = 100) {
  let now = 0;
  let busy = 0;
  return {
    read(): LoadReading {
      return { atMs: now, busy, own: new Map(), others: new Map([['vitest (200)', busy]]) };
    },
    /** Time passes (a poll, or a measurement). */
    advance(ms: number) {
      for (let t = 0; t < ms; t += stepMs) {
        const mid = now + stepMs / 2;
        if (busySpans.some(([from, to]) => mid >= from && mid < to)) busy += (1.5 * stepMs) / 10; // ticks at 100 per second
        now += stepMs;
      }
    },
    get now() {
      return now;
    },
  };
}

function gateOn(machine: ReturnType<typeof scriptedMachine>, options: { maxWaitSeconds?: number } = {}) {
  const logged: string[] = [];
  const gate = new ForeignLoadGate({
    maxCores: 0.15,
    quietSeconds: 1,
    maxWaitSeconds: options.maxWaitSeconds ?? 600,
    ticksPerSecond: 100,
    log: (message) => logged.push(message),
    pollMs: 0,
    read: () => {
      // Each look at the machine is 500 ms after the last.
      const reading = machine.read();
      machine.advance(500);
      return reading;
    },
  });
  return { gate, logged };
}

describe('the gate', () => {
  it('measures at once on a quiet machine, and reports no wait', async () => {
    const machine = scriptedMachine([]);
    const { gate, logged } = gateOn(machine);
    expect(await gate.measure('the feed', async () => 'measured')).toBe('measured');
    expect(gate.report()).toEqual({ maxCores: 0.15, waitedSeconds: 0, retaken: 0, takenBusy: 0, worstKeptCores: 0 });
    expect(logged).toEqual([]);
  });

  it('measures the next thing at once when the machine stayed quiet through the last measurement', async () => {
    const machine = scriptedMachine([]);
    const { gate } = gateOn(machine);
    const ends: number[] = [];
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      await gate.measure('a slice', async () => {
        starts.push(machine.now);
        machine.advance(1_000);
        ends.push(machine.now);
      });
    }
    // Between one measurement and the next only the looks at the machine that bracket them (500 ms
    // each here: the end of one, the check, the start of the next), no wait of quietSeconds.
    expect(starts[1]! - ends[0]!).toBe(1_500);
    expect(starts[2]! - ends[1]!).toBe(1_500);
  });

  it('after a measurement the neighbour disturbed, waits quietSeconds again', async () => {
    const machine = scriptedMachine([[3_000, 3_600]]);
    const { gate } = gateOn(machine);
    const starts: number[] = [];
    await gate.measure('a slice', async () => {
      starts.push(machine.now);
      machine.advance(2_000);
    });
    // The first attempt (about 1.5–3.5 s) met the busy moment; the retake waits a quiet second after it.
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(3_000);
  });

  it('waits until the neighbour has been quiet for quietSeconds, and reports how long it waited', async () => {
    const machine = scriptedMachine([[0, 10_000]]);
    const { gate, logged } = gateOn(machine);
    let startedAt = -1;
    await gate.measure('the feed', async () => {
      startedAt = machine.now;
    });
    expect(startedAt).toBeGreaterThanOrEqual(11_000);
    expect(gate.report().waitedSeconds).toBeGreaterThanOrEqual(9);
    expect(logged[0]).toBe('the rest of the machine is busy (1.50 CPUs: vitest (200) 1.50): waiting to measure the feed');
    expect(logged.at(-1)).toMatch(/^measuring the feed after \d+ s$/);
  });

  it('measures again when the neighbour got busy during the measurement, and keeps only the quiet one', async () => {
    // Quiet at first; busy from 2 s to 4 s, while the first attempt runs.
    const machine = scriptedMachine([[2_000, 4_000]]);
    const { gate } = gateOn(machine);
    const attempts: number[] = [];
    const result = await gate.measure('the feed', async () => {
      attempts.push(machine.now);
      machine.advance(3_000);
      return attempts.length;
    });
    expect(result).toBe(2);
    expect(attempts[1]!).toBeGreaterThanOrEqual(5_000);
    expect(gate.report()).toMatchObject({ retaken: 1, takenBusy: 0, worstKeptCores: 0 });
  });

  it('after waiting its most, measures as the machine is and counts it as taken busy', async () => {
    const machine = scriptedMachine([[0, 1_000_000]]);
    const { gate } = gateOn(machine, { maxWaitSeconds: 5 });
    let attempts = 0;
    await gate.measure('the feed', async () => {
      attempts += 1;
      machine.advance(1_000);
    });
    expect(attempts).toBe(1);
    const report = gate.report();
    expect(report.waitedSeconds).toBeGreaterThanOrEqual(5);
    expect(report.takenBusy).toBe(1);
    expect(report.worstKeptCores).toBeCloseTo(1.5, 1);
  });
});

describe.skipIf(!fs.existsSync('/proc/stat'))('on this machine', () => {
  it("counts a process the bench started and its launcher left to init as the bench's", () => {
    // sh starts sleep in the background and exits: sleep's parent is then init, not this process.
    const pid = Number(execFileSync('sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).trim());
    try {
      const gate = new ForeignLoadGate({ maxCores: 0.15, quietSeconds: 1, maxWaitSeconds: 0, ticksPerSecond: 100, log: () => {} });
      const reading = gate.reading();
      expect(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')).not.toMatch(new RegExp(`^${pid} \\(sleep\\) \\S+ ${process.pid} `));
      expect(reading.own.has(pid)).toBe(true);
      expect([...(reading.others?.keys() ?? [])]).not.toContain(`sleep (${pid})`);
    } finally {
      process.kill(pid);
    }
  });

  it("keeps counting a process as the bench's after its parent exits, though its environment is not the bench's", async () => {
    // As Chromium's zygotes, which outlive the closing browser: sleep starts with an empty
    // environment under a shell of this process; the shell then exits and leaves it to init.
    const shell = spawn('sh', ['-c', 'env -i sleep 30 >/dev/null 2>&1 & echo $!; read line'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const pid = Number((await new Promise<Buffer>((resolve) => shell.stdout.once('data', resolve))).toString().trim());
    try {
      const gate = new ForeignLoadGate({ maxCores: 0.15, quietSeconds: 1, maxWaitSeconds: 0, ticksPerSecond: 100, log: () => {} });
      expect(gate.reading().own.has(pid)).toBe(true);
      shell.stdin.end('\n');
      await new Promise((resolve) => shell.once('exit', resolve));
      expect(fs.readFileSync(`/proc/${pid}/environ`).length).toBe(0);
      expect(gate.reading().own.has(pid)).toBe(true);
    } finally {
      process.kill(pid);
    }
  });

  it('sees a process started and left to init within one measurement as its own', async () => {
    const gate = new ForeignLoadGate({ maxCores: 10, quietSeconds: 0, maxWaitSeconds: 0, ticksPerSecond: 100, log: () => {} });
    let pid = 0;
    await gate.measure('a launch', async () => {
      // Lives 0.8 s under its shell (the gate looks every 500 ms), then is left to init.
      const shell = spawn('sh', ['-c', 'env -i sleep 30 >/dev/null 2>&1 & echo $!; sleep 0.8'], { stdio: ['ignore', 'pipe', 'ignore'] });
      pid = Number((await new Promise<Buffer>((resolve) => shell.stdout.once('data', resolve))).toString().trim());
      await new Promise((resolve) => shell.once('exit', resolve));
    });
    try {
      expect(gate.reading().own.has(pid)).toBe(true);
    } finally {
      process.kill(pid);
    }
  });
});
