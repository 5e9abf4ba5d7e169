import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, EMAIL_DOMAIN, seed, SeedRefused, type SeedReport } from '../../bench/seed.js';
import { buildApp } from '../../src/server/app.js';
import { writeServerFile } from '../../src/server/backup/server-file.js';
import { loadConfig } from '../../src/server/config.js';
import type { Database } from '../../src/server/db/database.js';
import { imageFileKeys } from '../../src/server/posts/post-images.js';
import { DiskStorage } from '../../src/server/storage/disk-storage.js';
import { API } from '../../src/shared/api/paths.js';
import { deriveHashtags } from '../../src/shared/hashtags.js';
import { searchGrams, searchText } from '../../src/shared/keywords.js';
import { BOARD_NAME_MAX_LENGTH } from '../../src/shared/limits.js';
import { boardSlug } from '../../src/shared/validation/board.js';
import { isHttpLink } from '../../src/shared/validation/post.js';
import { spawnGroup } from '../helpers/processes.js';
import { childEnv } from '../helpers/server-process.js';
import { createTestDatabase } from '../helpers/test-app.js';

/**
 * The benchmark seeder (bench/seed.ts), run for real on a small scale: PGlite by default,
 * PostgreSQL with TEST_DATABASE_URL.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
// 30 boards: one of 30 posts (5% of the saves: the big one), 3 of one user (10% of them).
const SMALL = { users: 50, posts: 300, follows: 400, boards: 30, saves: 600, photos: 3, photoWidth: 240 } as const;

async function rows<Row>(database: Database, sql: string, params?: unknown[]): Promise<Row[]> {
  return database.rawTransaction((tx) => tx.query<Row>(sql, params));
}

async function counts(database: Database) {
  const [row] = await rows<{ users: number; posts: number; follows: number }>(
    database,
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM posts) AS posts,
            (SELECT count(*)::int FROM follows) AS follows`,
  );
  return row!;
}

/** Every index of the seeded tables as the catalog defines it. */
function indexDefinitions(database: Database) {
  return rows<{ indexname: string; indexdef: string }>(
    database,
    `SELECT indexname, indexdef FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename IN ('users', 'posts', 'follows') ORDER BY indexname`,
  );
}

describe('seeder (bench/seed.ts)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let mediaDir: string;
  let report: SeedReport;
  let indexesBefore: Array<{ indexname: string; indexdef: string }>;

  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase());
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-seed-'));
    indexesBefore = await indexDefinitions(database);
    // rebuildIndexes: exercise the drop-and-re-create path the big runs take.
    report = await seed({ database, storage: new DiskStorage(mediaDir), ...SMALL, rebuildIndexes: true });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await drop?.();
    if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('inserts exactly what was asked for and says so', async () => {
    expect(await counts(database)).toEqual({ users: SMALL.users, posts: SMALL.posts, follows: SMALL.follows });
    expect(report.counts).toEqual({
      users: SMALL.users,
      posts: SMALL.posts,
      follows: SMALL.follows,
      photos: SMALL.photos,
      boards: SMALL.boards,
      saves: SMALL.saves,
    });
    expect(report.database).toBe(database.kind);
    expect(report.indexesRebuilt).toBe(true);
    for (const phase of ['users', 'photos', 'posts', 'follows', 'boards', 'analyze', 'total']) {
      expect(report.timingsMs[phase], phase).toBeGreaterThanOrEqual(0);
    }
  });

  it('leaves every index exactly as the migrations made it', async () => {
    expect(await indexDefinitions(database)).toEqual(indexesBefore);
  });

  it('gives users valid, unique usernames, matching e-mails and a shared password hash', async () => {
    const users = await rows<{ username: string; email: string; password_hash: string; bio: string }>(
      database,
      'SELECT username, email, password_hash, bio FROM users',
    );
    expect(new Set(users.map((user) => user.username)).size).toBe(users.length);
    for (const user of users) {
      expect(user.username).toMatch(/^[a-z0-9_.]{3,20}$/);
      expect(user.email).toBe(`${user.username}@${EMAIL_DOMAIN}`);
      expect(user.bio.length).toBeLessThanOrEqual(160);
    }
    expect(new Set(users.map((user) => user.password_hash)).size).toBe(1);
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('stores every post image through the real pipeline, shared round-robin', async () => {
    const posts = await rows<{ image_key: string; width: number; height: number; placeholder: string }>(
      database,
      'SELECT image_key, width, height, placeholder FROM posts',
    );
    const images = new Map(posts.map((post) => [post.image_key, post]));
    expect(images.size).toBe(SMALL.photos);
    for (const [key, post] of images) {
      expect(key).toMatch(/^images\/[A-Za-z0-9_-]{16}\/[0-9a-f]{8}$/);
      for (const file of imageFileKeys(key)) expect(fs.existsSync(path.join(mediaDir, file)), file).toBe(true);
      // The stored dimensions and placeholder are the processed image's own.
      const full = await sharp(path.join(mediaDir, `${key}-full.jpg`)).metadata();
      expect([full.width, full.height]).toEqual([post.width, post.height]);
      expect(post.width).toBe(SMALL.photoWidth);
      expect(post.placeholder).toMatch(/^data:image\/webp;base64,/);
    }
    // Each post that "owns" a photo (its key names the post) exists.
    const ids = new Set((await rows<{ id: string }>(database, 'SELECT id FROM posts')).map((row) => row.id));
    for (const key of images.keys()) expect(ids.has(key.split('/')[1]!)).toBe(true);
  });

  it('writes descriptions whose search data and hashtags are the shared derivations', async () => {
    const posts = await rows<{
      description: string;
      link: string;
      search_grams: string[];
      search_text: string;
      hashtags: string[];
      created_at: Date;
    }>(database, 'SELECT description, link, search_grams, search_text, hashtags, created_at FROM posts');
    for (const post of posts.slice(0, 60)) {
      expect(post.search_grams).toEqual(searchGrams(post.description));
      expect(post.search_text).toEqual(searchText(post.description));
      expect(post.hashtags).toEqual(deriveHashtags(post.description));
    }
    for (const post of posts) {
      expect(post.description.length).toBeGreaterThanOrEqual(20);
      expect(post.description.length).toBeLessThanOrEqual(200);
      if (post.link) expect(isHttpLink(post.link), post.link).toBe(true);
      const age = Date.now() - new Date(post.created_at).getTime();
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThanOrEqual(366 * 24 * 3600 * 1000);
    }
    const tagged = posts.filter((post) => post.hashtags.length > 0).length;
    expect(tagged).toBeGreaterThan(posts.length / 2);
    expect(tagged).toBeLessThan(posts.length);
    expect(Math.max(...posts.map((post) => post.hashtags.length))).toBeLessThanOrEqual(4);
    const linked = posts.filter((post) => post.link).length;
    expect(linked).toBeGreaterThan(posts.length * 0.1);
    expect(linked).toBeLessThan(posts.length * 0.3);
  });

  it('builds a follow graph without self-follows or duplicates, with a popular account', async () => {
    const [edges] = await rows<{ total: number; distinct: number; self: number }>(
      database,
      `SELECT count(*)::int AS total, count(DISTINCT (follower_id, target_id))::int AS distinct,
              count(*) FILTER (WHERE follower_id = target_id)::int AS self FROM follows`,
    );
    expect(edges).toEqual({ total: SMALL.follows, distinct: SMALL.follows, self: 0 });
    const [top] = await rows<{ username: string; followers: number }>(
      database,
      `SELECT u.username, count(*)::int AS followers FROM follows f JOIN users u ON u.id = f.target_id
        GROUP BY u.username ORDER BY followers DESC, u.username LIMIT 1`,
    );
    expect(top!.followers).toBeGreaterThanOrEqual((3 * SMALL.follows) / SMALL.users);
    expect(report.popular[0]!.followers).toBe(top!.followers);
  });

  it('makes boards: one big, one user with many, secret and shared ones, counts kept by the triggers', async () => {
    const boards = await rows<{
      id: string;
      owner_id: string;
      name: string;
      slug: string;
      secret: boolean;
      post_count: number;
      saved: number;
      newest: Date | null;
      created_at: Date;
      last_saved_at: Date;
      cover_post_id: string | null;
    }>(
      database,
      `SELECT b.*, (SELECT count(*)::int FROM board_posts bp WHERE bp.board_id = b.id) AS saved,
              (SELECT max(saved_at) FROM board_posts bp WHERE bp.board_id = b.id) AS newest
         FROM boards b ORDER BY b.post_count DESC, b.id`,
    );
    expect(boards).toHaveLength(SMALL.boards);
    expect(boards.reduce((total, board) => total + board.saved, 0)).toBe(SMALL.saves);
    for (const board of boards) {
      expect(board.post_count, board.name).toBe(board.saved);
      // The tab's order: when a post was last saved there (the board's creation when none was).
      expect(board.last_saved_at).toEqual(board.newest ?? board.created_at);
      expect(board.slug === boardSlug(board.name) || board.slug.startsWith(`${boardSlug(board.name)}-`), board.slug).toBe(true);
      expect(board.name.length).toBeLessThanOrEqual(BOARD_NAME_MAX_LENGTH);
    }
    // The big board: 5% of the saves, the biggest, not secret, shared; the report names it.
    const big = boards[0]!;
    expect(big.post_count).toBe(SMALL.saves * 0.05);
    expect(boards[1]!.post_count).toBeLessThanOrEqual(big.post_count);
    expect(big.secret).toBe(false);
    const [owner] = await rows<{ username: string }>(database, 'SELECT username FROM users WHERE id = $1', [big.owner_id]);
    expect(report.boards!.big).toEqual({ owner: owner!.username, slug: big.slug, posts: big.post_count });
    // One user owns 10% of the boards, everyone else fewer.
    const perOwner = await rows<{ boards: number }>(
      database,
      'SELECT count(*)::int AS boards FROM boards GROUP BY owner_id ORDER BY boards DESC',
    );
    expect(perOwner[0]!.boards).toBe(SMALL.boards * 0.1);
    expect(perOwner[1]!.boards).toBeLessThan(perOwner[0]!.boards);
    expect(report.boards!.manyBoards.boards).toBe(SMALL.boards * 0.1);
    expect(report.boards!.secret).toBe(boards.filter((board) => board.secret).length);
    expect(report.boards!.secret).toBeGreaterThan(0);
    expect(boards.some((board) => board.saved === 0)).toBe(true);
    expect(boards.some((board) => board.cover_post_id !== null)).toBe(true);

    // Members: never the owner; most joined. Saves: by the owner or a joined member, after the
    // post, the board and the joining, and not in the future.
    const [members] = await rows<{ shared: number; joined: number; invited: number; owners: number }>(
      database,
      `SELECT count(DISTINCT m.board_id)::int AS shared, count(*) FILTER (WHERE m.joined_at IS NOT NULL)::int AS joined,
              count(*) FILTER (WHERE m.joined_at IS NULL)::int AS invited, count(*) FILTER (WHERE m.user_id = b.owner_id)::int AS owners
         FROM board_members m JOIN boards b ON b.id = m.board_id`,
    );
    expect(members!.shared).toBe(report.boards!.shared);
    expect(members!.shared).toBeGreaterThan(0);
    expect(members!.joined).toBeGreaterThan(0);
    expect(members!.owners).toBe(0);
    const [saves] = await rows<{ by_member: number; wrong_saver: number; too_early: number; future: number }>(
      database,
      `SELECT count(*) FILTER (WHERE bp.saved_by <> b.owner_id)::int AS by_member,
              count(*) FILTER (WHERE bp.saved_by <> b.owner_id AND NOT EXISTS (
                SELECT 1 FROM board_members m WHERE m.board_id = b.id AND m.user_id = bp.saved_by AND m.joined_at <= bp.saved_at))::int AS wrong_saver,
              count(*) FILTER (WHERE bp.saved_at < p.created_at OR bp.saved_at < b.created_at)::int AS too_early,
              count(*) FILTER (WHERE bp.saved_at > now())::int AS future
         FROM board_posts bp JOIN boards b ON b.id = bp.board_id JOIN posts p ON p.id = bp.post_id`,
    );
    expect(saves).toEqual({ by_member: saves!.by_member, wrong_saver: 0, too_early: 0, future: 0 });
    expect(saves!.by_member).toBeGreaterThan(0);
  });

  it('lets a seeded user sign in through the API with the seed password', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-seed-app-'));
    const app = await buildApp({
      config: { ...loadConfig({}), dataDir, logLevel: 'silent', clientDir: '/nonexistent' },
      database,
      storage: new DiskStorage(mediaDir),
    });
    try {
      const username = report.sampleUsernames[0]!;
      for (const identifier of [username, `${username}@${EMAIL_DOMAIN}`]) {
        const response = await app.inject({ method: 'POST', url: API.login, payload: { identifier, password: DEFAULT_PASSWORD } });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().user.username).toBe(username);
      }
      const wrong = await app.inject({ method: 'POST', url: API.login, payload: { identifier: username, password: 'not-the-password' } });
      expect(wrong.statusCode).toBe(401);
      // The feed serves the seeded posts with their stored files.
      const feed = await app.inject({ method: 'GET', url: API.posts });
      const card = feed.json().posts[0];
      const image = await app.inject({ method: 'GET', url: card.image.full });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a database that already has users, and appends when asked', async () => {
    const storage = new DiskStorage(mediaDir);
    await expect(seed({ database, storage, users: 1, posts: 0, follows: 0, photos: 0 })).rejects.toBeInstanceOf(SeedRefused);
    expect(await counts(database)).toEqual({ users: SMALL.users, posts: SMALL.posts, follows: SMALL.follows });

    // Same PRNG seed as the first run: the names it would pick are taken and must be avoided.
    const more = await seed({ database, storage, users: 10, posts: 5, follows: 8, photos: 1, photoWidth: 200, append: true });
    expect(more.counts).toEqual({ users: 10, posts: 5, follows: 8, photos: 1, boards: 0, saves: 0 });
    expect(await counts(database)).toEqual({ users: SMALL.users + 10, posts: SMALL.posts + 5, follows: SMALL.follows + 8 });
    const [unique] = await rows<{ n: number }>(database, 'SELECT count(DISTINCT username)::int AS n FROM users');
    expect(unique!.n).toBe(SMALL.users + 10);
  }, 60_000);

  it('refuses impossible requests before writing anything', async () => {
    const storage = new DiskStorage(mediaDir);
    const base = { database, storage, append: true, photos: 0 };
    await expect(seed({ ...base, users: 3, posts: 0, follows: 7 })).rejects.toThrow(/at most 6 follows/);
    await expect(seed({ ...base, users: 3, posts: 2, follows: 0 })).rejects.toThrow(/photo/);
    await expect(seed({ ...base, users: -1, posts: 0, follows: 0 })).rejects.toThrow(/non-negative/);
    await expect(seed({ ...base, users: 3, posts: 0, follows: 0, saves: 5 })).rejects.toThrow(/saves need boards/);
    // The big board holds 5% of the saves (here 10), and no board more.
    await expect(seed({ ...base, users: 3, posts: 200, follows: 0, photos: 1, boards: 2, saves: 200 })).rejects.toThrow(
      /2 boards of at most 10 posts cannot hold 200 saves/,
    );
    expect((await counts(database)).users).toBe(SMALL.users + 10);
  });
});

describe('seeder resume', () => {
  it('continues an interrupted run where it stopped, and leaves a complete one alone', async () => {
    const { database, drop } = await createTestDatabase();
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-seed-resume-'));
    try {
      const storage = new DiskStorage(mediaDir);
      const indexesBefore = await indexDefinitions(database);
      // Chunks of 100 posts and 400 follows. Interrupted twice: after the second chunk of posts
      // (their indexes dropped), then after the first chunk of follows (the follows indexes
      // dropped, the counters stale).
      const options = { database, storage, ...SMALL, follows: 800, rebuildIndexes: true, chunkRows: 100 };
      const interrupted = new Error('interrupted');
      for (const [at, expected] of [
        ['posts: 200/300', { users: SMALL.users, posts: 200, follows: 0 }],
        ['follows: 400/800', { users: SMALL.users, posts: SMALL.posts, follows: 400 }],
      ] as const) {
        await expect(
          seed({
            ...options,
            log: (line) => {
              if (line.includes(at)) throw interrupted;
            },
          }),
        ).rejects.toBe(interrupted);
        expect(await counts(database)).toEqual(expected);
      }

      const lines: string[] = [];
      const resumed = await seed({ ...options, log: (line) => lines.push(line) });
      expect(resumed.status).toBe('resumed');
      expect(lines).toContain(`resuming run 1: posts ${SMALL.posts}/${SMALL.posts}, follows 400/800 done`);
      expect(await counts(database)).toEqual({ users: SMALL.users, posts: SMALL.posts, follows: 800 });
      expect(await indexDefinitions(database)).toEqual(indexesBefore);
      const [edges] = await rows<{ distinct: number }>(
        database,
        'SELECT count(DISTINCT (follower_id, target_id))::int AS distinct FROM follows',
      );
      expect(edges!.distinct).toBe(800);
      // What an uninterrupted run of the same parameters makes (ids and times apart).
      const content = (db: Database) =>
        rows<{ line: string }>(
          db,
          `SELECT u.username || ' ' || p.description || ' ' || p.link || ' ' || p.hashtags::text AS line
             FROM posts p JOIN users u ON u.id = p.user_id ORDER BY line`,
        );
      const graph = (db: Database) =>
        rows<{ edge: string }>(
          db,
          `SELECT a.username || '>' || b.username AS edge FROM follows f
             JOIN users a ON a.id = f.follower_id JOIN users b ON b.id = f.target_id ORDER BY edge`,
        );
      const whole = await createTestDatabase();
      try {
        await seed({ ...options, database: whole.database, storage: new DiskStorage(path.join(mediaDir, 'whole')) });
        expect(await content(database)).toEqual(await content(whole.database));
        expect(await graph(database)).toEqual(await graph(whole.database));
      } finally {
        await whole.database.close();
        await whole.drop();
      }

      // The counters are the real counts, and the triggers keep them again.
      const wrong = () =>
        rows<{ id: string }>(
          database,
          `SELECT u.id FROM users u
            WHERE u.follower_count <> (SELECT count(*) FROM follows f WHERE f.target_id = u.id)
               OR u.following_count <> (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)`,
        );
      expect(await wrong()).toEqual([]);
      await rows(database, 'DELETE FROM follows WHERE follower_id IN (SELECT follower_id FROM follows LIMIT 1)');
      expect(await wrong()).toEqual([]);
      const [after] = await rows<{ follows: number }>(database, 'SELECT count(*)::int AS follows FROM follows');

      // The same command once more: nothing to do, nothing written.
      const again = await seed(options);
      expect(again.status).toBe('already complete');
      expect(again.counts).toEqual(resumed.counts);
      expect(again.popular).toEqual(resumed.popular);
      expect(await counts(database)).toEqual({ users: SMALL.users, posts: SMALL.posts, follows: after!.follows });
      // Other parameters on a seeded database are refused as before.
      await expect(seed({ ...options, follows: 10 })).rejects.toBeInstanceOf(SeedRefused);
    } finally {
      await database.close();
      await drop();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('seeder determinism', () => {
  it('makes the same users and graph from the same PRNG seed', async () => {
    const runs: Array<{ usernames: string[]; edges: string[] }> = [];
    for (let run = 0; run < 2; run++) {
      const { database, drop } = await createTestDatabase();
      try {
        const storage = new DiskStorage(path.join(os.tmpdir(), 'dormboard-seed-unused'));
        await seed({ database, storage, users: 30, posts: 0, follows: 90, photos: 0, random: 42 });
        runs.push({
          usernames: (await rows<{ username: string }>(database, 'SELECT username FROM users ORDER BY username')).map(
            (row) => row.username,
          ),
          edges: (
            await rows<{ edge: string }>(
              database,
              `SELECT a.username || '>' || b.username AS edge FROM follows f
                 JOIN users a ON a.id = f.follower_id JOIN users b ON b.id = f.target_id ORDER BY edge`,
            )
          ).map((row) => row.edge),
        });
      } finally {
        await database.close();
        await drop();
      }
    }
    expect(runs[0]!.usernames).toHaveLength(30);
    expect(runs[1]).toEqual(runs[0]);
  }, 60_000);
});

describe('seeder CLI', () => {
  async function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const run = spawnGroup(process.execPath, ['--import', 'tsx', 'bench/seed.ts', ...args], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: '', S3_BUCKET: '', ...env }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    run.child.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => run.child.once('close', (code) => resolve(code)));
    await run.kill();
    return { code, stderr };
  }

  it('refuses an embedded database that a running app owns', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-seed-owned-'));
    try {
      // This test process stands in for the running app.
      await writeServerFile(dataDir, { pid: process.pid, port: 1, token: 'x' });
      const result = await cli(['--users', '1', '--posts', '0', '--follows', '0'], { DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/app is running/);
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('explains its usage when a count is missing', async () => {
    const result = await cli(['--users', '10'], { DATA_DIR: path.join(os.tmpdir(), 'dormboard-seed-never') });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--posts must be a non-negative integer/);
  });
});
