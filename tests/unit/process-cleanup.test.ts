import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isRunning, spawnGroup, tempDir } from '../helpers/processes.js';
import { familyPids, startFamily } from '../fixtures/family.js';

/**
 * tests/helpers/processes.ts: a test's processes, and the processes those start, never outlive
 * it, whether it passes, fails or times out, and none outlive the test file or a stopped run.
 * Proven on real process families (a child that starts a grandchild) and on real vitest runs of
 * the fixtures in tests/fixtures/, which fail and time out on purpose.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/** Waits (a little) for SIGKILL to land: a killed process is gone a moment after the signal. */
async function expectGone(pids: number[], label: string) {
  for (let i = 0; i < 100 && pids.some(isRunning); i++) await sleep(20);
  for (const pid of pids) expect(isRunning(pid), `${label}: ${pid}`).toBe(false);
}

/** The fixtures in a vitest of their own (in a group of its own, like any process of a test). */
function fixtureRun(filter: string, pidsFile: string) {
  return spawnGroup(process.execPath, [VITEST, 'run', '--config', 'tests/fixtures/vitest.fixture.config.ts', filter], {
    cwd: ROOT,
    // Without this worker's VITEST_* variables, which would make the new vitest think it is one.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      PROCESS_CLEANUP_PIDS: pidsFile,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('process clean-up', () => {
  it('kill() ends the whole process group: the child and the grandchild it started', async () => {
    const file = path.join(tempDir('pids'), 'pids');
    const family = await startFamily('direct', file);
    const pids = familyPids(file).get('direct')!;
    expect(pids).toHaveLength(2);
    expect(pids.every(isRunning)).toBe(true);
    await family.kill();
    await expectGone(pids, 'after kill()');
  });

  it('a failed, a timed-out and a passed test each leave nothing running; a hook’s processes go with the file', async () => {
    const file = path.join(tempDir('pids'), 'pids');
    const run = fixtureRun('process-cleanup', file);
    const code = await run.exited;
    const output = run.output();
    // The two planned failures, and the fixture's own check that their processes were gone.
    expect(code, output).toBe(1);
    expect(output).toMatch(/Tests\s+2 failed \| 2 passed/);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^checked$/m);
    const pids = familyPids(file);
    for (const label of ['failed', 'timed-out', 'passed', 'hook']) {
      expect(pids.get(label), label).toHaveLength(2);
      await expectGone(pids.get(label)!, label);
    }
  }, 90_000);

  it('a run stopped mid-test (Ctrl-C) leaves nothing running', async () => {
    const file = path.join(tempDir('pids'), 'pids');
    const run = fixtureRun('hang', file);
    for (let i = 0; i < 1_500 && !familyPids(file).has('hanging'); i++) await sleep(20);
    const pids = familyPids(file).get('hanging');
    expect(pids, run.output()).toHaveLength(2);
    // Ctrl-C signals the terminal's whole foreground group: vitest and its workers, not the test's
    // detached groups; the workers must pass it on.
    process.kill(-run.pid, 'SIGINT');
    await run.exited;
    await expectGone(pids!, 'after Ctrl-C');
  }, 90_000);
});
