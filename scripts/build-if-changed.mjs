// `npm start` builds only when what the build reads changed since the last build that finished;
// `npm run build` (--always) builds whatever the stamp says. Either way the stamp, a SHA-256 of
// every input, is written into dist/ only once the client and the server both built, so an
// interrupted or failed build is built again next time.
//
//   node scripts/build-if-changed.mjs [--always] [--root DIR] [--command "shell command"]
//
// --root and --command exist for the tests, which run this on a small tree with a fake build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/**
 * Everything the build reads, relative to the project's root: the sources (vite's root is
 * src/client, which imports src/shared; the server bundle takes src/server and its assets), the
 * dependencies (the lockfile stands in for node_modules), and the build's own configuration and
 * scripts. Folders are read whole.
 */
export const BUILD_INPUTS = [
  'src',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'tsconfig*.json',
  'scripts/build-server.mjs',
  'scripts/precompress.mjs',
  'scripts/build-if-changed.mjs',
];

/** The build's own steps (`npm run build` runs them through this script). */
export const BUILD_COMMAND = 'npm run build:client && npm run build:server';

/** Written by a build that finished; what `npm start` compares with. */
export const STAMP = 'dist/build-inputs.json';

/** What a finished build leaves: missing, the build must run whatever the stamp says. */
export const BUILD_OUTPUTS = ['dist/server/main.js', 'dist/client/index.html'];

/** Files named by `inputs` under `root`, as sorted POSIX paths relative to it (a missing input is simply absent). */
async function inputFiles(root, inputs) {
  const files = [];
  for (const input of inputs) {
    const dir = path.dirname(input);
    const base = path.basename(input);
    // The one pattern used (tsconfig*.json): a `*` in the file name only.
    const names = base.includes('*')
      ? (await fs.readdir(path.join(root, dir)).catch(() => [])).filter((name) => globMatch(base, name))
      : [base];
    for (const name of names) {
      const relative = path.join(dir, name);
      const stat = await fs.stat(path.join(root, relative)).catch(() => undefined);
      if (stat?.isFile()) files.push(relative);
      else if (stat?.isDirectory()) {
        for (const entry of await fs.readdir(path.join(root, relative), { recursive: true, withFileTypes: true })) {
          if (entry.isFile()) files.push(path.relative(root, path.join(entry.parentPath, entry.name)));
        }
      }
    }
  }
  // Sorted, so the hash does not depend on the order the file system lists them in.
  return [...new Set(files.map((file) => file.split(path.sep).join('/')))].sort();
}

function globMatch(pattern, name) {
  const [before, after] = pattern.split('*');
  return name.length >= before.length + after.length && name.startsWith(before) && name.endsWith(after);
}

/**
 * SHA-256 of every input file, and of them all (their paths and hashes in order): a file added,
 * removed, renamed or changed changes it. Files are read a few at a time, each hashed as it is.
 */
export async function hashBuildInputs(root, inputs = BUILD_INPUTS) {
  const paths = await inputFiles(root, inputs);
  const files = {};
  const sha256 = (data) => createHash('sha256').update(data).digest('hex');
  const READ_AT_ONCE = 16;
  for (let start = 0; start < paths.length; start += READ_AT_ONCE) {
    const batch = paths.slice(start, start + READ_AT_ONCE);
    const hashes = await Promise.all(batch.map(async (file) => sha256(await fs.readFile(path.join(root, file)))));
    batch.forEach((file, index) => (files[file] = hashes[index]));
  }
  const hash = sha256(paths.map((file) => `${file}\0${files[file]}\n`).join(''));
  return { hash, files };
}

/** Whether a build is needed: `{ build: false }`, or `{ build: true, reason }` (one line, for the terminal). */
export async function buildDecision(root, current) {
  for (const output of BUILD_OUTPUTS) {
    if (!(await exists(path.join(root, output)))) return { build: true, reason: `${output} is missing` };
  }
  const stamp = await readStamp(root);
  if (!stamp) return { build: true, reason: `no ${STAMP} from a finished build` };
  if (stamp.hash === current.hash) return { build: false };
  const changed = [...new Set([...Object.keys(stamp.files), ...Object.keys(current.files)])]
    .filter((file) => stamp.files[file] !== current.files[file])
    .sort();
  const named = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  return { build: true, reason: changed.length > 0 ? `changed since the last build: ${named}` : 'the stamp is from another version' };
}

async function readStamp(root) {
  try {
    const stamp = JSON.parse(await fs.readFile(path.join(root, STAMP), 'utf8'));
    return typeof stamp?.hash === 'string' && stamp.files && typeof stamp.files === 'object' ? stamp : undefined;
  } catch {
    return undefined;
  }
}

async function exists(file) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function writeStamp(root, current) {
  await fs.mkdir(path.dirname(path.join(root, STAMP)), { recursive: true });
  await fs.writeFile(path.join(root, STAMP), `${JSON.stringify(current, null, 1)}\n`);
}

/**
 * Builds when needed (or always), then stamps. The inputs are hashed before the build starts:
 * a file saved while it runs may not be in what it built, and must be built next time.
 * Resolves to the process's exit code.
 */
export async function buildIfChanged({ root = process.cwd(), always = false, command = BUILD_COMMAND } = {}) {
  const started = performance.now();
  const current = await hashBuildInputs(root);
  const decision = always ? { build: true, reason: 'npm run build always builds' } : await buildDecision(root, current);
  const files = Object.keys(current.files).length;
  if (!decision.build) {
    const ms = Math.round(performance.now() - started);
    console.log(`build: skipped, nothing it reads changed since the last build (${files} files hashed in ${ms} ms)`);
    return 0;
  }
  console.log(`build: building, ${decision.reason}`);
  // Gone while building: a build cut short must not leave the old stamp beside half its output.
  await fs.rm(path.join(root, STAMP), { force: true });
  const result = spawnSync(command, { cwd: root, shell: true, stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  await writeStamp(root, current);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { always: { type: 'boolean', default: false }, root: { type: 'string' }, command: { type: 'string' } },
  });
  process.exitCode = await buildIfChanged({
    root: values.root && path.resolve(values.root),
    always: values.always,
    command: values.command,
  });
}
