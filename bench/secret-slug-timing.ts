/**
 * npx tsx bench/secret-slug-timing.ts [--database-url postgres://…] [--samples 60] [--rounds 5]
 *
 * Issue 26 point 11: whether a secret board's address answers in another time than an address
 * with no board (it did: 3.6 ms against 6.3 ms, medians of 60). Starts the real server
 * (src/server/main.ts, the embedded database by default) on a fresh data directory, makes an
 * owner with a secret board and a stranger, then asks for the secret board's page and for a
 * missing one in turn (after a warm-up), signed out and as the stranger, and prints the medians.
 * Both are 404 BOARD_NOT_FOUND; the medians must be within 10 % of each other. On a busy machine
 * one round's medians wander by more than that either way: each round is printed, and the
 * medians of all rounds' samples together.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API } from '../src/shared/api/paths.js';
import { untilAnswering } from './bench-server.js';

const { values } = parseArgs({
  options: { 'database-url': { type: 'string' }, samples: { type: 'string', default: '60' }, rounds: { type: 'string', default: '5' } },
});
const samples = Number(values.samples);
const rounds = Number(values.rounds);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-slug-timing-'));

const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DATABASE_|REDIS_|S3_|AWS_)/.test(name)));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  env: {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: '/nonexistent',
    LOG_LEVEL: 'warn',
    ...(values['database-url'] && { DATABASE_URL: values['database-url'] }),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function signUp(prefix: string): Promise<{ username: string; cookie: string }> {
  const username = `${prefix}${Date.now() % 1_000_000}`;
  const response = await fetch(`${base}${API.register}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse 1' }),
  });
  if (response.status !== 201) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='))!;
  return { username, cookie: cookie.split(';')[0]! };
}

/** One request's time in ms; it must be the 404. */
async function timed(url: string, cookie: string | undefined): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  await response.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (response.status !== 404) throw new Error(`${url}: ${response.status}`);
  return ms;
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function report(label: string, secret: number[], missing: number[]) {
  const [s, m] = [median(secret), median(missing)];
  const gap = Math.abs(s - m) / Math.max(s, m);
  const verdict = gap <= 0.1 ? 'within 10 %' : 'OVER 10 %';
  // Each pair ran back to back: their difference cancels the machine's drift between rounds.
  const paired = median(secret.map((time, i) => time - missing[i]!));
  console.log(
    `${label}: secret ${s.toFixed(2)} ms, missing ${m.toFixed(2)} ms (medians); apart ${(gap * 100).toFixed(1)} % (${verdict}); ` +
      `median paired difference ${paired.toFixed(3)} ms`,
  );
}

try {
  await untilAnswering(base, { tries: 600, everyMs: 100 });
  const owner = await signUp('own');
  const stranger = await signUp('str');
  const made = await fetch(`${base}${API.boards}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: owner.cookie },
    body: JSON.stringify({ name: 'Crush list', secret: true }),
  });
  const { board } = (await made.json()) as { board: { slug: string } };
  const secretUrl = `${base}${API.userBoard(owner.username, board.slug)}`;
  const missingUrl = `${base}${API.userBoard(owner.username, 'crush-list-zzzzzz')}`;
  console.log(`database: ${values['database-url'] ? 'PostgreSQL' : 'embedded (PGlite)'}; ${samples} samples each a round, alternating`);
  for (const [who, cookie] of [
    ['signed out', undefined],
    ['a stranger', stranger.cookie],
  ] as const) {
    for (let i = 0; i < 20; i++) await Promise.all([timed(secretUrl, cookie), timed(missingUrl, cookie)]);
    const all = { secret: [] as number[], missing: [] as number[] };
    for (let round = 1; round <= rounds; round++) {
      const secret: number[] = [];
      const missing: number[] = [];
      for (let i = 0; i < samples; i++) {
        // Alternating which goes first: neither always follows the other.
        if (i % 2) {
          secret.push(await timed(secretUrl, cookie));
          missing.push(await timed(missingUrl, cookie));
        } else {
          missing.push(await timed(missingUrl, cookie));
          secret.push(await timed(secretUrl, cookie));
        }
      }
      report(`${who}, round ${round}`, secret, missing);
      all.secret.push(...secret);
      all.missing.push(...missing);
    }
    report(`${who}, all ${rounds * samples}`, all.secret, all.missing);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
