/**
 * The calibration workload of issue 28 point 4 (bench/run.ts spawns it on the server's CPU): a
 * fixed, deterministic, CPU-bound job whose time says how fast this machine runs the server's
 * kind of work right now. CPU budgets are CPU time per request divided by its CPU time.
 *
 * What the server spends a read on, in the same proportions roughly: building a page of posts as
 * objects (20 posts, authors, image variants, as GET /api/posts answers), JSON.stringify of it
 * (the response), JSON.parse (request bodies, cached rows), a sha256 (session tokens and ETags
 * are hashed per request) and tokenizing text with a regular expression (search, hashtags): the
 * tight part, which lives in L1 and L2. Then the memory part (memoryJob below), which does not.
 * No I/O, the same work every time.
 *
 * Prints {"cpuMs", "wallMs", "tightCpuMs", "memoryCpuMs", "rounds"} on stdout: each the median
 * of REPETITIONS runs after WARMUP runs (the JIT settled), CPU from process.cpuUsage() (user +
 * system), wall from performance.now(); cpuMs and wallMs are both parts together, as budgets
 * judge them.
 */
import crypto from 'node:crypto';

const ROUNDS = 200;
const WARMUP = 2;
const REPETITIONS = 5;

const WORDS = 'study room coffee lecture campus library exam notes dorm kitchen laundry friends weekend sunset'.split(' ');

function page(round) {
  const posts = [];
  for (let i = 0; i < 20; i++) {
    const n = round * 20 + i;
    posts.push({
      id: `01J${String(n).padStart(23, '0')}`,
      description: Array.from({ length: 12 }, (_, w) => WORDS[(n + w * 7) % WORDS.length]).join(' ') + ` #tag${n % 50}`,
      createdAt: new Date(1_700_000_000_000 + n * 60_000).toISOString(),
      author: { username: `user${n % 997}`, displayName: `User ${n % 997}`, avatar: `/media/a/${n % 997}.webp` },
      image: {
        full: `/media/p/${n}.webp`,
        width: 1080,
        height: 1350,
        variants: [320, 640, 1080].map((w) => ({ src: `/media/p/${n}-${w}.webp`, width: w, height: Math.round(w * 1.25) })),
      },
      likes: n % 113,
      liked: n % 3 === 0,
    });
  }
  return { posts, nextCursor: `${round}:${posts[19].id}` };
}

/**
 * The memory side of the server's work: a database read walks index and heap pages spread over
 * far more memory than a core's L2 (2 MiB here) and the server parses and builds objects spread
 * over its heap, so its CPU time per request rises when another process shares the core and its
 * caches. The tight loop above hardly feels that; this part does, in the same way: random
 * look-ups in a 4 MiB table of rows through a 1 MiB index (an index probe, then the row it
 * points at, as a B-tree descent and a heap fetch do: above L2, within L3, so what another
 * process evicts must be fetched again) and JSON.parse of a ~3 MB text (200 feed pages' worth of
 * objects on the heap). Built once, before the timed runs; the same work every time.
 */
const ROWS = 1 << 18;
const table = new Uint32Array(ROWS * 4);
const index = new Uint32Array(ROWS);
{
  let x = 0x9e3779b9;
  const next = () => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6b43a9b5) >>> 0), x);
  for (let i = 0; i < ROWS; i++) index[i] = i;
  for (let i = ROWS - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [index[i], index[j]] = [index[j], index[i]];
  }
  for (let i = 0; i < table.length; i++) table[i] = next();
}
const PROBES = 150_000;
const bigPage = JSON.stringify(Array.from({ length: 200 }, (_, round) => page(round)));

function memoryJob() {
  let check = 0;
  let key = 12345;
  for (let i = 0; i < PROBES; i++) {
    const row = index[key % ROWS] * 4;
    key = (table[row] ^ table[row + 1] ^ table[row + 2] ^ table[row + 3] ^ i) >>> 0;
    check += key & 1;
  }
  const parsed = JSON.parse(bigPage);
  return check + parsed.length;
}

function tightJob() {
  let check = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const body = JSON.stringify(page(round));
    const parsed = JSON.parse(body);
    const digest = crypto.createHash('sha256').update(body).digest();
    const tokens = parsed.posts.flatMap((post) => post.description.toLowerCase().match(/[a-z0-9]{2,}/g) ?? []);
    check += digest[0] + tokens.length;
  }
  return check;
}

/** CPU and wall ms of one run of `work`. */
function timed(work) {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  work();
  const wallMs = performance.now() - wallBefore;
  const used = process.cpuUsage(cpuBefore);
  return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

const runs = [];
for (let i = 0; i < WARMUP + REPETITIONS; i++) {
  const tight = timed(tightJob);
  const memory = timed(memoryJob);
  if (i >= WARMUP) runs.push({ tight, memory });
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round = (value) => Math.round(value * 100) / 100;
const of = (pick) => round(median(runs.map(pick)));
process.stdout.write(
  JSON.stringify({
    cpuMs: of((r) => r.tight.cpuMs + r.memory.cpuMs),
    wallMs: of((r) => r.tight.wallMs + r.memory.wallMs),
    tightCpuMs: of((r) => r.tight.cpuMs),
    memoryCpuMs: of((r) => r.memory.cpuMs),
    rounds: ROUNDS,
  }),
);
