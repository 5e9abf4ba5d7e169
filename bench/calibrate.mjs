/**
 * The calibration workload of issue 28 point 4 (bench/run.ts spawns it on the server's CPU): a
 * fixed, deterministic, CPU-bound job whose time says how fast this machine runs the server's
 * kind of work right now. CPU budgets are CPU time per request divided by its CPU time.
 *
 * What the server spends a read on, in the same proportions roughly: building a page of posts as
 * objects (20 posts, authors, image variants, as GET /api/posts answers), JSON.stringify of it
 * (the response), JSON.parse (request bodies, cached rows), a sha256 (session tokens and ETags
 * are hashed per request) and tokenizing text with a regular expression (search, hashtags). No
 * I/O, no allocation the size of the machine's memory, the same work every time.
 *
 * Prints {"cpuMs", "wallMs", "rounds"} on stdout: the median of REPETITIONS runs after WARMUP
 * runs (the JIT settled), CPU from process.cpuUsage() (user + system), wall from performance.now().
 */
import crypto from 'node:crypto';

const ROUNDS = 200;
const WARMUP = 3;
const REPETITIONS = 7;

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

function job() {
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

const cpu = [];
const wall = [];
for (let i = 0; i < WARMUP + REPETITIONS; i++) {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  job();
  const wallMs = performance.now() - wallBefore;
  const used = process.cpuUsage(cpuBefore);
  if (i < WARMUP) continue;
  cpu.push((used.user + used.system) / 1000);
  wall.push(wallMs);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round = (value) => Math.round(value * 100) / 100;
process.stdout.write(JSON.stringify({ cpuMs: round(median(cpu)), wallMs: round(median(wall)), rounds: ROUNDS }));
