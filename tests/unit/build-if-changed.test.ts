import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildDecision, hashBuildInputs, STAMP } from '../../scripts/build-if-changed.mjs';
import { tempDir } from '../helpers/processes.js';

/**
 * `npm start` builds only when something the build reads changed (scripts/build-if-changed.mjs).
 * The script runs here as `npm start` runs it, on a small project tree of its own, with a fake
 * build that writes the two outputs and counts its runs (the real one takes seconds).
 */

const SCRIPT = path.resolve('scripts/build-if-changed.mjs');

/** A tree with the project's shape: inputs of the build, and files it does not read. */
function project(): string {
  const root = tempDir('build-inputs');
  const files: Record<string, string> = {
    'src/client/index.html': '<div id="root"></div>',
    'src/client/main.tsx': 'export {};',
    'src/shared/copy.ts': 'export const HELLO = "hello";',
    'src/server/main.ts': 'console.log("server");',
    'package.json': '{"name":"fake"}',
    'package-lock.json': '{"lockfileVersion":3}',
    'vite.config.ts': 'export default {};',
    'tsconfig.json': '{}',
    'README.md': '# fake',
    'tests/unit/a.test.ts': 'test',
    'docs/deploy.md': 'deploy',
    // The fake build: the outputs `npm start` checks for, and one line per run.
    'fake-build.mjs': [
      "import fs from 'node:fs';",
      "fs.mkdirSync('dist/server', { recursive: true });",
      "fs.mkdirSync('dist/client', { recursive: true });",
      "fs.writeFileSync('dist/server/main.js', '');",
      "fs.writeFileSync('dist/client/index.html', '');",
      "fs.appendFileSync('builds.log', 'built\\n');",
    ].join('\n'),
  };
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

function write(root: string, file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

const builds = (root: string) =>
  fs.existsSync(path.join(root, 'builds.log')) ? fs.readFileSync(path.join(root, 'builds.log'), 'utf8').split('\n').length - 1 : 0;

/** The script as `npm start` runs it (or `npm run build`, with --always), on `root`. */
async function start(root: string, options: { always?: boolean; command?: string } = {}) {
  const args = [SCRIPT, '--root', root, '--command', options.command ?? 'node fake-build.mjs'];
  if (options.always) args.push('--always');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('the hash of what the build reads', () => {
  it('changes when a source file, the lockfile, package.json, vite.config.ts or tsconfig changes, or a source is added', async () => {
    const root = project();
    let previous = (await hashBuildInputs(root)).hash;
    expect(previous).toMatch(/^[0-9a-f]{64}$/);
    const edits: [string, string][] = [
      ['src/client/main.tsx', 'export const changed = 1;'],
      ['src/shared/copy.ts', 'export const HELLO = "hi";'],
      ['src/server/main.ts', 'console.log("changed");'],
      ['package-lock.json', '{"lockfileVersion":3,"packages":{}}'],
      ['package.json', '{"name":"fake","version":"2"}'],
      ['vite.config.ts', 'export default { base: "/" };'],
      ['tsconfig.json', '{"compilerOptions":{}}'],
      ['src/client/new-page.tsx', 'export {};'],
    ];
    for (const [file, text] of edits) {
      write(root, file, text);
      const { hash } = await hashBuildInputs(root);
      expect(hash, file).not.toBe(previous);
      previous = hash;
    }
    // A file moved is a change too, though no content changed.
    fs.renameSync(path.join(root, 'src/client/new-page.tsx'), path.join(root, 'src/client/other-page.tsx'));
    expect((await hashBuildInputs(root)).hash).not.toBe(previous);
  });

  it('does not change when a file the build does not read changes (README, tests, docs, dist)', async () => {
    const root = project();
    const before = await hashBuildInputs(root);
    write(root, 'README.md', '# changed');
    write(root, 'tests/unit/a.test.ts', 'changed');
    write(root, 'tests/unit/b.test.ts', 'new');
    write(root, 'docs/deploy.md', 'changed');
    write(root, 'dist/client/index.html', 'built');
    expect(await hashBuildInputs(root)).toEqual(before);
    expect(Object.keys(before.files)).toEqual([
      'package-lock.json',
      'package.json',
      'src/client/index.html',
      'src/client/main.tsx',
      'src/server/main.ts',
      'src/shared/copy.ts',
      'tsconfig.json',
      'vite.config.ts',
    ]);
  });
});

describe('npm start builds only when needed', () => {
  it('builds the first time, skips while nothing changed, builds again after a change and names it', async () => {
    const root = project();
    const first = await start(root);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain('build: building, dist/server/main.js is missing');
    expect(builds(root)).toBe(1);
    expect(fs.existsSync(path.join(root, STAMP))).toBe(true);

    const second = await start(root);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^build: skipped, nothing it reads changed since the last build \(8 files hashed in \d+ ms\)\n$/);
    expect(builds(root)).toBe(1);

    // Files it does not read change nothing.
    write(root, 'README.md', '# edited');
    expect((await start(root)).stdout).toContain('build: skipped');
    expect(builds(root)).toBe(1);

    write(root, 'src/shared/copy.ts', 'export const HELLO = "hi";');
    const third = await start(root);
    expect(third.stdout).toContain('build: building, changed since the last build: src/shared/copy.ts');
    expect(builds(root)).toBe(2);
    expect((await start(root)).stdout).toContain('build: skipped');
    expect(builds(root)).toBe(2);
  }, 60_000);

  it('builds when an output is missing, whatever the stamp says', async () => {
    const root = project();
    await start(root);
    fs.rmSync(path.join(root, 'dist/client/index.html'));
    expect((await start(root)).stdout).toContain('build: building, dist/client/index.html is missing');
    expect(builds(root)).toBe(2);
  }, 60_000);

  it('a failed build leaves no stamp, so the next start builds even with the sources as they were', async () => {
    const root = project();
    await start(root);
    write(root, 'src/server/main.ts', 'console.log("broken");');
    const failed = await start(root, { command: 'node -e "process.exit(3)"' });
    expect(failed.code).toBe(3);
    expect(fs.existsSync(path.join(root, STAMP))).toBe(false);
    // Put back as the last finished build had it: the half-written dist/ must still be rebuilt.
    write(root, 'src/server/main.ts', 'console.log("server");');
    expect((await buildDecision(root, await hashBuildInputs(root))).build).toBe(true);
    expect((await start(root)).stdout).toContain(`build: building, no ${STAMP} from a finished build`);
    expect(builds(root)).toBe(2);
  }, 60_000);

  it('npm run build (--always) builds whatever the stamp says, and stamps, so npm start then skips', async () => {
    const root = project();
    await start(root);
    expect((await start(root, { always: true })).stdout).toContain('build: building, npm run build always builds');
    expect(builds(root)).toBe(2);
    expect((await start(root)).stdout).toContain('build: skipped');
    expect(builds(root)).toBe(2);
  }, 60_000);
});
