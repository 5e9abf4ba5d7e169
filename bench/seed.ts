/**
 * npm run seed -- --users 10000 --posts 100000 --follows 200000 [--boards 2000 --saves 200000]
 *                 [--notifications 10000 --popular-followers 50000]
 *                 [--photos 300] [--seed 1] [--password benchmark-password] [--append]
 *                 [--photo-width N] [--rebuild-indexes true|false]
 *
 * Fills the configured database (DATABASE_URL → PostgreSQL, else the embedded PGlite under
 * DATA_DIR) and storage (S3_* → S3, else DATA_DIR/media) with benchmark data: realistic users
 * who can all sign in with --password, posts with hashtags and real photos made by the real
 * image pipeline, a follow graph with a few very popular accounts, and with --boards boards of
 * saved posts (bench/seed-boards.ts: one at the 10,000-post limit, one user with many, secret and
 * shared ones), and with --notifications one user with that many notifications and one account
 * with --popular-followers followers, adding the users it needs as followers (bench/seed-notifications.ts).
 * Prints a JSON summary.
 *
 * Everything drawn at random comes from a seeded PRNG, so a run is reproducible (ids, image
 * keys and timestamps relative to "now" are the exceptions). Refuses a database that already
 * has users unless --append is given, and an embedded database that a running app owns.
 *
 * Resumable: the rows go in committed chunks, and a table of the database, bench_seed_runs,
 * records after each one how far the run got (with the photos, the users' ids and the run's
 * "now", so the rest is drawn exactly as an uninterrupted run would draw it). Running the same
 * command again after an interruption (Ctrl-C, a kill, a crash) continues where it stopped; after
 * a complete run it changes nothing and prints the summary again. Until a run completes, the
 * posts and follows may lack their secondary indexes and the follow counters may be stale (both
 * are restored at its end), so finish an interrupted run before using the data.
 *
 * Also importable: `seed({ database, storage, ... })` runs in-process (benchmarks, tests).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/server/auth/password.js';
import { readServerFile } from '../src/server/backup/server-file.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase, type Database, type RawTransaction } from '../src/server/db/database.js';
import { migrate } from '../src/server/db/migrate.js';
import { newId } from '../src/server/ids.js';
import { processImage } from '../src/server/images/image-pipeline.js';
import { lookalikeKey } from '../src/server/lookalikes/skeleton.js';
import { newImageKey, storeImage } from '../src/server/posts/post-images.js';
import { createStorage } from '../src/server/storage/create-storage.js';
import type { Storage } from '../src/server/storage/storage.js';
import { deriveHashtags } from '../src/shared/hashtags.js';
import { searchGrams, searchText } from '../src/shared/keywords.js';
import { BOARD_MEMBERS_MAX, DESCRIPTION_MAX_LENGTH } from '../src/shared/limits.js';
import { checkBoardCounts, COLLABORATOR_SAVES, planBoards, saveTime } from './seed-boards.js';
import { checkNotificationCounts, planNotifications, type NotificationInputs } from './seed-notifications.js';
import { generatePhoto } from './seed-photos.js';
import { int, shuffle, stream, zipf, type Random } from './seed-random.js';
import * as words from './seed-words.js';

export interface SeedOptions {
  database: Database;
  storage: Storage;
  users: number;
  posts: number;
  follows: number;
  /** Boards (issue 18; default 0), and the posts saved to them in all (default 0). */
  boards?: number;
  saves?: number;
  /**
   * Issue 30 (bench/seed-notifications.ts): the notified user's notifications (default 0), and
   * the popular account's followers in all (default 0), completed with users added for it.
   */
  notifications?: number;
  popularFollowers?: number;
  /** Distinct photos made and stored; posts share them round-robin. */
  photos: number;
  /** PRNG seed (default 1). */
  random?: number;
  /** Every seeded user's password (default 'benchmark-password'). */
  password?: string;
  /** Add to a database that already has users (otherwise refused). */
  append?: boolean;
  /** Make every photo this wide instead of 1600–3000 px (fast tests). */
  photoWidth?: number;
  /** Photos generated and processed at once (default 2: one per core here). */
  photoConcurrency?: number;
  /**
   * Drop the posts and follows secondary indexes during the load and re-create them (same
   * names and definitions) afterwards. Default: only for big loads, where it is faster.
   */
  rebuildIndexes?: boolean;
  /** Rows committed per transaction (default 50,000 posts; follows four times as many). */
  chunkRows?: number;
  /** Progress lines (default: silent). */
  log?: (line: string) => void;
}

export interface SizeStats {
  min: number;
  median: number;
  max: number;
}

export interface SeedReport {
  database: Database['kind'];
  /**
   * 'seeded': a new run; 'resumed': an interrupted run of the same parameters, finished now;
   * 'already complete': the same parameters were seeded before, nothing was written.
   */
  status: 'seeded' | 'resumed' | 'already complete';
  counts: { users: number; posts: number; follows: number; photos: number; boards: number; saves: number };
  /**
   * Wall time of each phase in milliseconds: migrate, photos, passwordHash, users, posts,
   * follows, boards (when asked for), counters, analyze and total. posts and follows include re-creating their indexes,
   * also shown alone as postsIndexes and followsIndexes when they were rebuilt. A resumed run
   * times only what it did (skipped phases take ~0).
   */
  timingsMs: Record<string, number>;
  photoBytes: { input: SizeStats; full: SizeStats };
  indexesRebuilt: boolean;
  /** The most followed accounts, most followed first. */
  popular: Array<{ username: string; followers: number }>;
  /** The most active posters, most posts first. */
  prolific: Array<{ username: string; posts: number }>;
  /** A few seeded usernames, for signing in (password: the one given). */
  sampleUsernames: string[];
  /** With boards: the biggest board and the user with the most boards, in the whole database. */
  boards?: {
    big: { owner: string; slug: string; posts: number };
    manyBoards: { username: string; boards: number };
    secret: number;
    shared: number;
  };
  /** With notifications: the notified user and the popular account, in the whole database. */
  notifications?: NotificationSummary;
}

export interface NotificationSummary {
  notified: { username: string; rows: number; unread: number; groups: number; kinds: Record<string, number> };
  popular: { username: string; followers: number; rows: number; unread: number };
  /** Users whose unread_notifications differs from their unread rows (0: the triggers kept them). */
  countersOff: number;
}

/** Thrown (before anything is written) when the target is not empty and append is off. */
export class SeedRefused extends Error {
  override name = 'SeedRefused';
}

export const DEFAULT_PASSWORD = 'benchmark-password';
export const DEFAULT_PHOTOS = 300;
export const EMAIL_DOMAIN = 'campus.example';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per INSERT statement (a batch of posts is ~2 MB of SQL). */
const BATCH = 1_000;
/**
 * Posts per committed transaction. An interruption loses at most one chunk; a commit costs
 * next to nothing at this size (a 100,000-post load took the same time as in one transaction).
 */
const CHUNK_ROWS = 50_000;
/** Loads at least this big drop and re-create secondary indexes (see SeedOptions). */
const REBUILD_INDEXES_FROM = 20_000;
/** The progress of every run (see the file comment); not part of the app's schema. */
const RUNS = 'bench_seed_runs';

interface Photo {
  /** The post that "owns" the photo's files (images/<post id>/...): the photo's first user. */
  owner: string;
  key: string;
  width: number;
  height: number;
  placeholder: string;
  inputBytes: number;
  fullBytes: number;
}

/** What makes two runs the same run: a re-run with these resumes (or finds it complete). */
interface RunParams {
  users: number;
  posts: number;
  follows: number;
  /** Absent in runs recorded before boards existed: 0. */
  boards: number;
  saves: number;
  /** Absent in runs recorded before notifications existed: 0. */
  notifications: number;
  popularFollowers: number;
  photos: number;
  seed: number;
}

/** A row of bench_seed_runs: how far a run got. */
interface Run {
  id: number;
  params: RunParams;
  /** The run's "now": timestamps are drawn relative to it, so a resumed run draws the same. */
  now_ms: number;
  /** Set once the photos are made and stored. */
  photos: Photo[] | null;
  /** Set once the users are in, in the order they were drawn. */
  user_ids: string[] | null;
  posts_done: number;
  follows_done: number;
  /** Set once the boards, their members and saves are in (one transaction). */
  boards_done: boolean;
  /** Set once the fans, their follows and the notifications are in (one transaction). */
  notifications_done: boolean;
  /** Secondary indexes dropped for the load and not yet re-created. */
  dropped: Array<{ table: string; name: string; definition: string }>;
  complete: boolean;
}

export async function seed(options: SeedOptions): Promise<SeedReport> {
  const { database, storage, users: userCount, posts: postCount, follows: followCount } = options;
  const boardCount = options.boards ?? 0;
  const saveCount = options.saves ?? 0;
  const notificationCount = options.notifications ?? 0;
  const popularFollowers = options.popularFollowers ?? 0;
  const seedValue = options.random ?? 1;
  const log = options.log ?? (() => undefined);
  for (const [name, value] of Object.entries({
    users: userCount,
    posts: postCount,
    follows: followCount,
    boards: boardCount,
    saves: saveCount,
    notifications: notificationCount,
    popularFollowers,
    photos: options.photos,
  })) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if (postCount > 0 && userCount === 0) throw new RangeError('posts need users');
  if (postCount > 0 && options.photos === 0) throw new RangeError('posts need at least one photo');
  if (followCount > userCount * (userCount - 1)) {
    throw new RangeError(`${userCount} users can have at most ${userCount * (userCount - 1)} follows`);
  }
  checkBoardCounts({ users: userCount, posts: postCount, boards: boardCount, saves: saveCount });
  checkNotificationCounts({ users: userCount, posts: postCount, boards: boardCount, notifications: notificationCount, popularFollowers });
  const chunkRows = options.chunkRows ?? CHUNK_ROWS;

  const timings: Record<string, number> = {};
  const started = performance.now();
  async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    log(`${name}...`);
    const result = await work();
    timings[name] = Math.round(performance.now() - start);
    log(`${name}: ${timings[name]} ms`);
    return result;
  }

  await phase('migrate', () => migrate(database));
  const photoCount = Math.min(options.photos, postCount);
  const params: RunParams = {
    users: userCount,
    posts: postCount,
    follows: followCount,
    boards: boardCount,
    saves: saveCount,
    notifications: notificationCount,
    popularFollowers,
    photos: photoCount,
    seed: seedValue,
  };
  const { run, status } = await startRun(database, params, options.append ?? false);
  if (status === 'resumed') {
    log(`resuming run ${run.id}: posts ${run.posts_done}/${postCount}, follows ${run.follows_done}/${followCount} done`);
  }
  if (status === 'already complete') log(`run ${run.id} seeded these parameters already: nothing to do`);
  const rebuildIndexes = options.rebuildIndexes ?? postCount + followCount >= REBUILD_INDEXES_FROM;
  // Index builds sort in memory when they may: much faster for the big GIN index.
  const indexMemory = database.kind === 'pglite' ? '256MB' : '1GB';
  const update = (sql: string, values: unknown[]) =>
    database.rawTransaction((tx) => tx.query(`UPDATE ${RUNS} SET ${sql} WHERE id = $1`, [run.id, ...values]));

  // ---- photos: the first post that uses a photo "owns" its files (images/<post id>/...).
  // An interruption before they are recorded leaves the files made so far behind, unused.
  const photos = await phase('photos', async () => {
    if (run.photos) return run.photos;
    const made = await makePhotos({
      storage,
      seed: seedValue,
      owners: Array.from({ length: photoCount }, () => newId()),
      width: options.photoWidth,
      concurrency: options.photoConcurrency ?? 2,
      log,
    });
    await update('photos = $2::jsonb', [JSON.stringify(made)]);
    return made;
  });

  // ---- users: one transaction (50,000 take a few seconds), recording their ids with them.
  let userIds = run.user_ids;
  if (!userIds) {
    const passwordHash = await phase('passwordHash', () => hashPassword(options.password ?? DEFAULT_PASSWORD));
    const existing = await database.rawTransaction((tx) =>
      tx.query<{ username: string; email: string }>('SELECT username, email FROM users'),
    );
    const users = makeUsers(stream(seedValue, 'users'), userCount, existing);
    userIds = users.map((user) => user.id);
    await phase('users', () =>
      database.rawTransaction(async (tx) => {
        const loader = new Loader(tx);
        for (let start = 0; start < users.length; start += BATCH) {
          const batch = users.slice(start, start + BATCH);
          await loader.insert(
            'users',
            ['id', 'username', 'email', 'password_hash', 'bio', 'created_at'],
            batch.map((user) => [user.id, user.username, `${user.username}@${EMAIL_DOMAIN}`, passwordHash, user.bio, user.createdAt]),
          );
        }
        await loader.flush();
        await tx.query(`UPDATE ${RUNS} SET user_ids = $2::text[] WHERE id = $1`, [run.id, userIds]);
      }),
    );
  }
  const ids = userIds;

  // ---- posts, in committed chunks. Every post is drawn, also those a previous attempt
  // committed (cheap: only their text), so the PRNG is where an uninterrupted run has it.
  const postsRandom = stream(seedValue, 'posts');
  const authorOrder = shuffle(
    stream(seedValue, 'authors'),
    Array.from({ length: userCount }, (_, index) => index),
  );
  // Some users post a lot: the top poster has ~1.4% of all posts, most users a handful.
  const authorRank = zipf(userCount, 1, 10);
  const postsPerUser = new Uint32Array(userCount);
  const times = spreadTimes(postsRandom, postCount, 365, run.now_ms);
  const drawPost = () => {
    const author = authorOrder[authorRank(postsRandom)]!;
    postsPerUser[author]! += 1;
    const text = words.description(postsRandom, DESCRIPTION_MAX_LENGTH);
    return { author, text, link: postsRandom() < 0.2 ? words.link(postsRandom) : '' };
  };
  await phase('posts', () =>
    loadTable(database, run, 'posts', rebuildIndexes, indexMemory, timings, async () => {
      let index = 0;
      for (; index < Math.min(run.posts_done, postCount); index++) drawPost();
      while (index < postCount) {
        const end = Math.min(postCount, index + chunkRows);
        await database.rawTransaction(async (tx) => {
          const loader = new Loader(tx);
          while (index < end) {
            const size = Math.min(BATCH, end - index);
            const rows = Array.from({ length: size }, () => {
              const { author, text, link } = drawPost();
              // Round-robin over the photos: neighbours in the feed show different pictures.
              // Several posts share one photo's files, so deleting one seeded post removes files
              // that others still show: acceptable for benchmark data.
              const photo = photos[index % photos.length]!;
              const row = [
                index < photos.length ? photo.owner : newId(),
                ids[author]!,
                text,
                link,
                arrayLiteral(searchGrams(text)),
                searchText(text),
                arrayLiteral(deriveHashtags(text)),
                photo.key,
                photo.width,
                photo.height,
                photo.placeholder,
                new Date(times[index]!).toISOString(),
              ];
              index += 1;
              return row;
            });
            await loader.insert('posts', POST_COLUMNS, rows);
          }
          await loader.flush();
          await tx.query(`UPDATE ${RUNS} SET posts_done = $2 WHERE id = $1`, [run.id, end]);
        });
        log(`  posts: ${end}/${postCount} committed`);
      }
    }),
  );

  // ---- follows, in committed chunks too. The counter triggers are off meanwhile: they would
  // rewrite the users rows of every batch again (millions of dead rows for 1M follows); the
  // counters are set from the edges once at the end (the 'counters' phase).
  const graph = makeFollowGraph(stream(seedValue, 'follows'), userCount, followCount);
  await phase('follows', () =>
    loadTable(database, run, 'follows', rebuildIndexes, indexMemory, timings, async () => {
      const followsRandom = stream(seedValue, 'follow-times');
      const edgeTime = () => new Date(run.now_ms - followsRandom() * 365 * DAY_MS).toISOString();
      let index = 0;
      for (; index < Math.min(run.follows_done, graph.edges.length); index++) followsRandom();
      if (index < graph.edges.length) await database.rawTransaction((tx) => tx.exec(COUNTER_TRIGGERS('DISABLE')));
      while (index < graph.edges.length) {
        const end = Math.min(graph.edges.length, index + chunkRows * 4);
        await database.rawTransaction(async (tx) => {
          const loader = new Loader(tx);
          for (; index < end; index += BATCH * 5) {
            const batch = graph.edges.slice(index, Math.min(end, index + BATCH * 5));
            await loader.insert(
              'follows',
              ['follower_id', 'target_id', 'created_at'],
              batch.map((edge) => [ids[Math.floor(edge / userCount)]!, ids[edge % userCount]!, edgeTime()]),
            );
          }
          await loader.flush();
          await tx.query(`UPDATE ${RUNS} SET follows_done = $2 WHERE id = $1`, [run.id, end]);
        });
        index = end;
        log(`  follows: ${end}/${graph.edges.length} committed`);
      }
    }),
  );

  // ---- boards, their members and saves: one transaction (200,000 saves take seconds), marked
  // done in it. Migration 12's statement-level triggers keep each board's post_count as the
  // saves go in, as they do for the app.
  if (boardCount > 0 && !run.boards_done) {
    await phase('boards', () =>
      database.rawTransaction(async (tx) => {
        await loadBoards(tx, { seed: seedValue, userIds: ids, boards: boardCount, saves: saveCount, now: run.now_ms });
        await tx.query(`UPDATE ${RUNS} SET boards_done = true WHERE id = $1`, [run.id]);
      }),
    );
  }

  // ---- notifications (issue 30): the fans, their follows, the rows; one transaction, marked done
  // in it. Before the counters: the fans' follows are counted with the rest.
  if ((notificationCount > 0 || popularFollowers > 0) && !run.notifications_done) {
    const passwordHash = await hashPassword(options.password ?? DEFAULT_PASSWORD);
    await phase('notifications', () =>
      database.rawTransaction(async (tx) => {
        await loadNotifications(tx, {
          seed: seedValue,
          notifications: notificationCount,
          popularFollowers,
          passwordHash,
          now: run.now_ms,
          log,
        });
        await tx.query(`UPDATE ${RUNS} SET notifications_done = true WHERE id = $1`, [run.id]);
      }),
    );
  }

  if (!run.complete) {
    // Every user's counters from the edges (right for rows added earlier too), rewriting only
    // the rows that change; then the triggers keep them, as they do for the app.
    await phase('counters', () =>
      database.rawTransaction(async (tx) => {
        await tx.exec(`
          UPDATE users SET follower_count = c.followers, following_count = c.following
          FROM (
            SELECT u.id, coalesce(t.n, 0) AS followers, coalesce(f.n, 0) AS following
            FROM users u
            LEFT JOIN (SELECT target_id, count(*)::int AS n FROM follows GROUP BY target_id) t ON t.target_id = u.id
            LEFT JOIN (SELECT follower_id, count(*)::int AS n FROM follows GROUP BY follower_id) f ON f.follower_id = u.id
          ) c
          WHERE users.id = c.id AND (users.follower_count, users.following_count) IS DISTINCT FROM (c.followers, c.following)`);
        await tx.exec(COUNTER_TRIGGERS('ENABLE'));
      }),
    );
    await phase('analyze', () =>
      database.rawTransaction((tx) => tx.exec('ANALYZE users, posts, follows, boards, board_posts, board_members, notifications')),
    );
    await update('complete = true', []);
  }
  timings.total = Math.round(performance.now() - started);

  const topBy = (counts: ArrayLike<number>, limit: number) =>
    Array.from(counts, (count, index) => ({ index, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, limit);
  const popular = topBy(graph.followers, 5);
  const prolific = topBy(postsPerUser, 5);
  const sample = ids.slice(0, 5);
  const wanted = [...popular.map(({ index }) => ids[index]!), ...prolific.map(({ index }) => ids[index]!), ...sample];
  const usernames = new Map(
    (
      await database.rawTransaction((tx) =>
        tx.query<{ id: string; username: string }>('SELECT id, username FROM users WHERE id = ANY($1::text[])', [wanted]),
      )
    ).map((row) => [row.id, row.username]),
  );
  const username = (id: string) => usernames.get(id) ?? id;
  return {
    database: database.kind,
    status,
    counts: {
      users: ids.length,
      posts: postCount,
      follows: graph.edges.length,
      photos: photos.length,
      boards: boardCount,
      saves: saveCount,
    },
    timingsMs: timings,
    photoBytes: { input: stats(photos.map((photo) => photo.inputBytes)), full: stats(photos.map((photo) => photo.fullBytes)) },
    indexesRebuilt: rebuildIndexes,
    popular: popular.map(({ index, count }) => ({ username: username(ids[index]!), followers: count })),
    prolific: prolific.map(({ index, count }) => ({ username: username(ids[index]!), posts: count })),
    sampleUsernames: sample.map(username),
    ...(boardCount > 0 && { boards: await boardSummary(database) }),
    ...(notificationCount > 0 && { notifications: await notificationSummary(database) }),
  };
}

/**
 * Draws the boards (bench/seed-boards.ts) over the database's posts, oldest first, and inserts
 * them, their members and saves, then the chosen covers (a cover must be on its board) and each
 * board's last_saved_at: the trigger gives every board of one multi-board INSERT that
 * statement's newest save, right for the app's one-save statements but not for a bulk load.
 */
async function loadBoards(
  tx: RawTransaction,
  options: { seed: number; userIds: string[]; boards: number; saves: number; now: number },
): Promise<void> {
  const posts = await tx.query<{ id: string; time: number }>(
    'SELECT id, (extract(epoch FROM created_at) * 1000)::float8 AS time FROM posts ORDER BY created_at, id',
  );
  const plan = planBoards({
    random: stream(options.seed, 'boards'),
    userCount: options.userIds.length,
    postTimes: posts.map((post) => post.time),
    boards: options.boards,
    saves: options.saves,
    now: options.now,
  });
  if (!plan) return;
  const user = (index: number) => options.userIds[index]!;
  const iso = (time: number) => new Date(time).toISOString();
  const loader = new Loader(tx);
  for (let start = 0; start < plan.boards.length; start += BATCH) {
    await loader.insert(
      'boards',
      ['id', 'owner_id', 'name', 'slug', 'description', 'secret', 'created_at', 'last_saved_at'],
      plan.boards
        .slice(start, start + BATCH)
        .map((board) => [
          board.id,
          user(board.owner),
          board.name,
          board.slug,
          board.description,
          String(board.secret),
          iso(board.createdAt),
          iso(board.createdAt),
        ]),
    );
  }
  await loader.insert(
    'board_members',
    ['board_id', 'user_id', 'invited_at', 'joined_at'],
    plan.boards.flatMap((board) =>
      board.members.map((member) => [
        board.id,
        user(member.user),
        iso(member.invitedAt),
        member.joinedAt === null ? null : iso(member.joinedAt),
      ]),
    ),
  );
  // Who saved what when: the owner, or on a shared board sometimes a collaborator (after joining).
  const random = stream(options.seed, 'saves');
  let rows: Array<Array<string | number | null>> = [];
  for (const board of plan.boards) {
    const joined = board.members.filter((member) => member.joinedAt !== null);
    for (const post of board.posts) {
      const member = joined.length > 0 && random() < COLLABORATOR_SAVES ? joined[Math.floor(random() * joined.length)]! : undefined;
      const earliest = Math.max(posts[post]!.time, member ? member.joinedAt! : board.createdAt);
      rows.push([board.id, posts[post]!.id, user(member ? member.user : board.owner), iso(saveTime(random, earliest, options.now))]);
      if (rows.length === BATCH * 5) {
        await loader.insert('board_posts', ['board_id', 'post_id', 'saved_by', 'saved_at'], rows);
        rows = [];
      }
    }
  }
  await loader.insert('board_posts', ['board_id', 'post_id', 'saved_by', 'saved_at'], rows);
  await loader.flush();
  const covers = plan.boards.filter((board) => board.cover !== null);
  if (covers.length > 0) {
    await tx.exec(
      `UPDATE boards SET cover_post_id = v.post_id
         FROM (VALUES ${covers.map((board) => `(${sqlLiteral(board.id)}, ${sqlLiteral(posts[board.posts[board.cover!]!]!.id)})`).join(',')}) AS v (id, post_id)
        WHERE boards.id = v.id`,
    );
  }
  await tx.query(
    `UPDATE boards SET last_saved_at = m.newest
       FROM (SELECT board_id, max(saved_at) AS newest FROM board_posts WHERE board_id = ANY ($1::text[]) GROUP BY board_id) AS m
      WHERE boards.id = m.board_id`,
    [plan.boards.map((board) => board.id)],
  );
}

/** The biggest board and the user with the most boards (the bench's fixtures), and how many are secret or shared. */
async function boardSummary(database: Database): Promise<NonNullable<SeedReport['boards']>> {
  const [row] = await database.rawTransaction((tx) =>
    tx.query<{ owner: string; slug: string; posts: number; many: string; many_boards: number; secret: number; shared: number }>(
      `SELECT big.owner, big.slug, big.posts, many.username AS many, many.boards AS many_boards,
              (SELECT count(*)::int FROM boards WHERE secret) AS secret,
              (SELECT count(DISTINCT board_id)::int FROM board_members) AS shared
         FROM (SELECT u.username AS owner, b.slug, b.post_count AS posts FROM boards b JOIN users u ON u.id = b.owner_id
                ORDER BY b.post_count DESC, b.id LIMIT 1) AS big,
              (SELECT u.username, count(*)::int AS boards FROM boards b JOIN users u ON u.id = b.owner_id
                GROUP BY u.username ORDER BY boards DESC, u.username LIMIT 1) AS many`,
    ),
  );
  return {
    big: { owner: row!.owner, slug: row!.slug, posts: row!.posts },
    manyBoards: { username: row!.many, boards: row!.many_boards },
    secret: row!.secret,
    shared: row!.shared,
  };
}

/**
 * Issue 30 (bench/seed-notifications.ts). Picks the popular account and the notified user among
 * the users none of the bench's other scenarios use (the authors of the 40 newest posts, the
 * big board's owner, the user with the most boards), adds the fans the popular account lacks as
 * users, draws the plan over what the database holds and inserts it in bulk: the follows (their
 * counters are the 'counters' phase's), the notified user's board memberships, then the
 * notifications, 5,000 rows per INSERT, migration 19's statement triggers keeping every
 * users.unread_notifications. Checks the counters against the rows afterwards.
 */
async function loadNotifications(
  tx: RawTransaction,
  options: {
    seed: number;
    notifications: number;
    popularFollowers: number;
    passwordHash: string;
    now: number;
    log: (line: string) => void;
  },
): Promise<void> {
  const excluded = (
    await tx.query<{ id: string }>(
      `SELECT user_id AS id FROM (SELECT user_id FROM posts ORDER BY created_at DESC, id DESC LIMIT 40) AS newest
       UNION SELECT owner_id FROM (SELECT owner_id FROM boards WHERE NOT secret ORDER BY post_count DESC, id LIMIT 1) AS big
       UNION SELECT owner_id FROM (SELECT owner_id FROM boards GROUP BY owner_id ORDER BY count(*) DESC, owner_id LIMIT 1) AS many`,
    )
  ).map((row) => row.id);
  const [popular] = await tx.query<{ id: string; username: string; followers: number }>(
    `SELECT u.id, u.username, count(f.follower_id)::int AS followers FROM users u LEFT JOIN follows f ON f.target_id = u.id
      WHERE u.id <> ALL ($1::text[]) GROUP BY u.id ORDER BY followers DESC, u.username LIMIT 1`,
    [excluded],
  );
  if (!popular) throw new RangeError('no user is left to be the popular account');
  const [notified] = await tx.query<{ id: string; username: string }>(
    `SELECT u.id, u.username FROM posts p JOIN users u ON u.id = p.user_id
      WHERE u.id <> ALL ($1::text[]) GROUP BY u.id ORDER BY count(*) DESC, u.username LIMIT 1`,
    [[...excluded, popular.id]],
  );
  if (options.notifications > 0 && !notified) throw new RangeError('no author is left to be the notified user');

  // ---- the fans: as the seed's users, one to two years a member, all with the one password. With
  // their look-alike keys, which the server would otherwise fill at its first start (fill-keys.ts),
  // tens of thousands of them past its start-up timeout on a busy machine; a key another account
  // has stays unset, as the server leaves it.
  const fanCount = Math.max(0, options.popularFollowers - popular.followers);
  const existing = await tx.query<{ username: string; email: string; key: string | null }>(
    'SELECT username, email, email_skeleton AS key FROM users',
  );
  const fans = makeUsers(stream(options.seed, 'fans'), fanCount, existing);
  const keys = new Set(existing.flatMap((user) => (user.key === null ? [] : [user.key])));
  const loader = new Loader(tx);
  for (let start = 0; start < fans.length; start += BATCH) {
    await loader.insert(
      'users',
      ['id', 'username', 'email', 'email_skeleton', 'password_hash', 'bio', 'created_at'],
      fans.slice(start, start + BATCH).map((user) => {
        const email = `${user.username}@${EMAIL_DOMAIN}`;
        const key = lookalikeKey(email);
        const free = !keys.has(key);
        keys.add(key);
        return [user.id, user.username, email, free ? key : null, options.passwordHash, user.bio, user.createdAt];
      }),
    );
  }
  await loader.flush();
  options.log(`  notifications: ${fans.length} fans added for ${popular.username} (${popular.followers} followers before)`);

  const inputs: NotificationInputs = {
    notifiedId: notified?.id ?? popular.id,
    notifiedPosts: notified
      ? await tx.query<{ id: string; time: number }>(
          'SELECT id, (extract(epoch FROM created_at) * 1000)::float8 AS time FROM posts WHERE user_id = $1 ORDER BY created_at, id',
          [notified.id],
        )
      : [],
    publicBoards: await tx.query<{ id: string; ownerId: string; createdAt: number }>(
      `SELECT id, owner_id AS "ownerId", (extract(epoch FROM created_at) * 1000)::float8 AS "createdAt" FROM boards
        WHERE NOT secret AND owner_id <> $1 ORDER BY created_at, id`,
      [notified?.id ?? ''],
    ),
    secretBoards: await tx.query<{ id: string; ownerId: string; createdAt: number }>(
      `SELECT b.id, b.owner_id AS "ownerId", (extract(epoch FROM b.created_at) * 1000)::float8 AS "createdAt" FROM boards b
        WHERE b.secret AND b.owner_id <> ALL ($2::text[])
          AND NOT EXISTS (SELECT 1 FROM board_members m WHERE m.board_id = b.id AND m.user_id = $1)
          AND (SELECT count(*) FROM board_members m WHERE m.board_id = b.id) < $3
        ORDER BY b.created_at, b.id`,
      [notified?.id ?? '', [notified?.id ?? '', ...excluded], BOARD_MEMBERS_MAX],
    ),
    otherPosts: (
      await tx.query<{ id: string }>('SELECT id FROM posts WHERE user_id <> $1 ORDER BY created_at, id LIMIT 10', [notified?.id ?? ''])
    ).map((row) => row.id),
    popularId: popular.id,
    fanIds: fans.map((fan) => fan.id),
  };
  const plan = planNotifications({
    random: stream(options.seed, 'notifications'),
    now: options.now,
    notifications: options.notifications,
    inputs,
  });
  const iso = (time: number) => new Date(time).toISOString();
  for (let start = 0; start < plan.follows.length; start += BATCH * 5) {
    await loader.insert(
      'follows',
      ['follower_id', 'target_id', 'created_at'],
      plan.follows.slice(start, start + BATCH * 5).map((edge) => [edge.followerId, edge.targetId, iso(edge.createdAt)]),
    );
  }
  await loader.insert(
    'board_members',
    ['board_id', 'user_id', 'invited_at', 'joined_at'],
    plan.members.map((member) => [
      member.boardId,
      inputs.notifiedId,
      iso(member.invitedAt),
      member.joinedAt === null ? null : iso(member.joinedAt),
    ]),
  );
  const columns = ['id', 'user_id', 'kind', 'actor_id', 'post_id', 'board_id', 'group_key', 'day', 'detail', 'until', 'created_at', 'read'];
  for (let start = 0; start < plan.rows.length; start += BATCH * 5) {
    await loader.insert(
      'notifications',
      columns,
      plan.rows.slice(start, start + BATCH * 5).map((row) => {
        const id = newId();
        return [
          id,
          row.userId,
          row.kind,
          row.actorId,
          row.postId,
          row.boardId,
          // A moderator's notice is a group of its own, as the app keys it (activity.queries.ts insertNotifications).
          row.groupKey || `${row.kind}:${id}`,
          iso(row.createdAt).slice(0, 10),
          row.detail,
          row.until === null ? null : iso(row.until),
          iso(row.createdAt),
          String(row.read),
        ];
      }),
    );
  }
  await loader.flush();
  const [off] = await tx.query<{ n: number }>(COUNTERS_OFF);
  if (off!.n > 0) throw new Error(`${off!.n} users' unread_notifications differ from their unread rows after the load`);
  options.log(
    `  notifications: ${plan.rows.length} rows (${notified?.username ?? '-'} ${plan.rows.filter((row) => row.userId === notified?.id).length}), ` +
      `${plan.follows.length} follows, ${plan.members.length} invitations; every unread counter matches its rows`,
  );
}

/** Users whose unread counter differs from their unread rows. */
const COUNTERS_OFF = `
  SELECT count(*)::int AS n FROM users u
    LEFT JOIN (SELECT user_id, count(*)::int AS n FROM notifications WHERE NOT read GROUP BY user_id) AS c ON c.user_id = u.id
   WHERE u.unread_notifications <> coalesce(c.n, 0)`;

/**
 * The popular account (the most followers) and the notified user (the most rows of the others),
 * as bench/run.ts finds them, with their rows; and whether every unread counter matches its rows.
 */
async function notificationSummary(database: Database): Promise<NotificationSummary> {
  return database.rawTransaction(async (tx) => {
    const [popular] = await tx.query<{ id: string; username: string; followers: number; unread: number }>(
      'SELECT id, username, follower_count AS followers, unread_notifications AS unread FROM users ORDER BY follower_count DESC, username LIMIT 1',
    );
    const [notified] = await tx.query<{ user_id: string; username: string; rows: number; unread: number; groups: number }>(
      `SELECT n.user_id, u.username, count(*)::int AS rows, u.unread_notifications AS unread,
              count(DISTINCT (n.day, n.group_key))::int AS groups
         FROM notifications n JOIN users u ON u.id = n.user_id
        WHERE n.user_id <> $1 GROUP BY n.user_id, u.username, u.unread_notifications ORDER BY rows DESC LIMIT 1`,
      [popular!.id],
    );
    const kinds = await tx.query<{ kind: string; n: number }>(
      'SELECT kind, count(*)::int AS n FROM notifications WHERE user_id = $1 GROUP BY kind ORDER BY n DESC, kind',
      [notified?.user_id ?? ''],
    );
    const [popularRows] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [popular!.id]);
    const [off] = await tx.query<{ n: number }>(COUNTERS_OFF);
    return {
      notified: {
        username: notified?.username ?? '',
        rows: notified?.rows ?? 0,
        unread: notified?.unread ?? 0,
        groups: notified?.groups ?? 0,
        kinds: Object.fromEntries(kinds.map((row) => [row.kind, row.n])),
      },
      popular: { username: popular!.username, followers: popular!.followers, rows: popularRows!.n, unread: popular!.unread },
      countersOff: off!.n,
    };
  });
}

const POST_COLUMNS = [
  'id',
  'user_id',
  'description',
  'link',
  'search_grams',
  'search_text',
  'hashtags',
  'image_key',
  'width',
  'height',
  'placeholder',
  'created_at',
];

/** The statement-level triggers of migration 5 that keep users' follow counters. */
const COUNTER_TRIGGERS = (action: 'ENABLE' | 'DISABLE') =>
  `ALTER TABLE follows ${action} TRIGGER follows_counts_insert, ${action} TRIGGER follows_counts_delete`;

/**
 * Finds the run these parameters continue, or records a new one. An unfinished run resumes;
 * a finished one with the same parameters is done (unless appending); anything else in the
 * database is refused unless appending. An unfinished run of other parameters is refused even
 * then: its indexes and counters still wait for it.
 */
async function startRun(database: Database, params: RunParams, append: boolean): Promise<{ run: Run; status: SeedReport['status'] }> {
  return database.rawTransaction(async (tx) => {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${RUNS} (
        id           serial PRIMARY KEY,
        params       jsonb NOT NULL,
        now_ms       double precision NOT NULL,
        photos       jsonb,
        user_ids     text[],
        posts_done   integer NOT NULL DEFAULT 0,
        follows_done integer NOT NULL DEFAULT 0,
        dropped      jsonb NOT NULL DEFAULT '[]',
        complete     boolean NOT NULL DEFAULT false
      )`);
    // Databases seeded before boards (notifications) existed have the table without these columns.
    await tx.exec(`ALTER TABLE ${RUNS} ADD COLUMN IF NOT EXISTS boards_done boolean NOT NULL DEFAULT false`);
    await tx.exec(`ALTER TABLE ${RUNS} ADD COLUMN IF NOT EXISTS notifications_done boolean NOT NULL DEFAULT false`);
    // The whole days bench/run.ts moved the notifications by since (seed-notifications.ts redateNotifications).
    await tx.exec(`ALTER TABLE ${RUNS} ADD COLUMN IF NOT EXISTS notifications_shift_days integer NOT NULL DEFAULT 0`);
    const runs = await tx.query<Run>(`SELECT * FROM ${RUNS} ORDER BY id`);
    const same = (run: Run) => (Object.keys(params) as Array<keyof RunParams>).every((key) => (run.params[key] ?? 0) === params[key]);
    const unfinished = runs.find((run) => !run.complete);
    if (unfinished) {
      if (same(unfinished)) return { run: unfinished, status: 'resumed' };
      throw new SeedRefused(
        `run ${unfinished.id} (${JSON.stringify(unfinished.params)}) was interrupted: run it again with those parameters to finish it`,
      );
    }
    const done = runs.find(same);
    if (done && !append) return { run: done, status: 'already complete' };
    const [{ users } = { users: 0 }] = await tx.query<{ users: number }>('SELECT count(*)::int AS users FROM users');
    if (users > 0 && !append) {
      throw new SeedRefused(`the database already has ${users} users: seed an empty database, or pass --append to add to it`);
    }
    const [run] = await tx.query<Run>(`INSERT INTO ${RUNS} (params, now_ms) VALUES ($1::jsonb, $2) RETURNING *`, [
      JSON.stringify(params),
      Date.now(),
    ]);
    return { run: run!, status: 'seeded' };
  });
}

// ------------------------------------------------------------------------------------ users

interface SeedUser {
  id: string;
  username: string;
  bio: string;
  createdAt: string;
}

/** Unique usernames (also unique against `existing`), joined one to two years ago, oldest first. */
function makeUsers(random: Random, count: number, existing: Array<{ username: string; email: string }>): SeedUser[] {
  const taken = new Set(existing.map((user) => user.username));
  for (const user of existing) {
    const [local, domain] = user.email.split('@');
    if (domain === EMAIL_DOMAIN && local) taken.add(local);
  }
  const times = spreadTimes(random, count, 365).map((time) => time - 365 * DAY_MS);
  return Array.from({ length: count }, (_, index) => {
    const username = words.uniqueUsername(random, words.username(random), taken);
    taken.add(username);
    return { id: newId(), username, bio: words.bio(random), createdAt: new Date(times[index]!).toISOString() };
  });
}

/** `count` instants in the `days` days before `now`, ascending, at millisecond resolution. */
function spreadTimes(random: Random, count: number, days: number, now = Date.now()): Float64Array {
  const times = new Float64Array(count);
  for (let index = 0; index < count; index++) times[index] = now - Math.floor(random() * days * DAY_MS);
  return times.sort();
}

// ----------------------------------------------------------------------------------- photos

/**
 * Generates each photo, runs it through the real pipeline (processImage) and stores its files
 * the way the app does (storeImage under newImageKey). A few at a time: each holds tens of MB
 * of pixels, and there are only so many cores.
 */
async function makePhotos(options: {
  storage: Storage;
  seed: number;
  owners: string[];
  width: number | undefined;
  concurrency: number;
  log: (line: string) => void;
}): Promise<Photo[]> {
  const photos = new Array<Photo>(options.owners.length);
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < options.owners.length) {
      const index = next++;
      const generated = await generatePhoto(stream(options.seed, `photo:${index}`), { width: options.width });
      const image = await processImage(generated.jpeg);
      const key = newImageKey(options.owners[index]!);
      await storeImage(options.storage, key, image);
      photos[index] = {
        owner: options.owners[index]!,
        key,
        width: image.width,
        height: image.height,
        placeholder: image.placeholder,
        inputBytes: generated.jpeg.length,
        fullBytes: image.full.length,
      };
      done += 1;
      if (done % 25 === 0) options.log(`  photos: ${done}/${options.owners.length}`);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return photos;
}

// ---------------------------------------------------------------------------------- follows

/**
 * `count` distinct directed edges without self-follows, each encoded as follower * n + target.
 * ~30% go to a few celebrities (about one account in a hundred, at most 20), skewed among them;
 * the rest to anyone, with a long tail of mildly popular accounts.
 */
function makeFollowGraph(random: Random, n: number, count: number): { edges: number[]; followers: Uint32Array } {
  const followers = new Uint32Array(n);
  const seen = new Set<number>();
  const edges: number[] = [];
  const add = (follower: number, target: number) => {
    const edge = follower * n + target;
    if (follower === target || seen.has(edge)) return false;
    seen.add(edge);
    edges.push(edge);
    followers[target]! += 1;
    return true;
  };
  if (count === 0) return { edges, followers };

  if (count > (n * (n - 1)) / 2) {
    // Dense: every pair, shuffled, and take what is asked for.
    const all: number[] = [];
    for (let follower = 0; follower < n; follower++) {
      for (let target = 0; target < n; target++) if (follower !== target) all.push(follower * n + target);
    }
    for (const edge of shuffle(random, all).slice(0, count)) add(Math.floor(edge / n), edge % n);
    return { edges, followers };
  }

  const order = shuffle(
    random,
    Array.from({ length: n }, (_, index) => index),
  );
  const celebrities = order.slice(0, Math.min(20, Math.max(1, Math.floor(n / 100))));
  const celebrityRank = zipf(celebrities.length, 0.5, 2);
  // A celebrity can't have more followers than there are other users: leave room.
  const celebrityEdges = Math.min(Math.round(count * 0.3), Math.floor(celebrities.length * (n - 1) * 0.7));
  for (let misses = 0; edges.length < celebrityEdges && misses < 1_000;) {
    if (add(int(random, 0, n - 1), celebrities[celebrityRank(random)]!)) misses = 0;
    else misses += 1;
  }
  // Everyone else: followers uniform, targets with a long tail (rank r weighs 1/(r + 200)).
  const targetRank = zipf(n, 1, 200);
  while (edges.length < count) add(int(random, 0, n - 1), order[targetRank(random)]!);
  return { edges, followers };
}

// ----------------------------------------------------------------------------------- SQL

/**
 * One multi-row INSERT ... VALUES per batch, with the values written as SQL literals. Measured
 * against alternatives on both drivers (2,000 posts with ~200 keywords each, as posts stored before migration 8): bound array
 * parameters with unnest() took 2.5× (PGlite) to 6× (node-postgres) longer, a JSON parameter
 * with json_to_recordset 1.7–3×; the driver-side escaping of big parameters is what costs.
 * Every value here is generated by the seeder itself, and sqlLiteral quotes it fully anyway.
 * Multi-row VALUES in an INSERT take the target columns' types, so '{"a","b"}' becomes text[].
 */
function insertSql(table: string, columns: string[], rows: Array<Array<string | number | null>>): string {
  const values = rows.map((row) => `(${row.map(sqlLiteral).join(',')})`).join(',\n');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`;
}

/**
 * Sends the INSERTs of one transaction one after another without waiting in between: the next
 * batch is generated while the database still works on the previous one (PostgreSQL runs in
 * its own process, so that is the client's work and the server's overlapping).
 */
class Loader {
  private pending: Promise<void> = Promise.resolve();
  constructor(private readonly tx: RawTransaction) {}

  async insert(table: string, columns: string[], rows: Array<Array<string | number | null>>): Promise<void> {
    if (rows.length === 0) return;
    const sql = insertSql(table, columns, rows);
    await this.pending;
    this.pending = this.tx.exec(sql);
    // Surfaces through the next insert() or flush(); never an unhandled rejection meanwhile.
    this.pending.catch(() => undefined);
  }

  flush(): Promise<void> {
    return this.pending;
  }
}

function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (value.includes('\0')) throw new RangeError('text cannot hold NUL characters');
  const quoted = value.replace(/'/g, "''");
  // With standard_conforming_strings (the default) backslashes are literal in '...'; E'...'
  // keeps them literal whatever that setting is.
  return value.includes('\\') ? `E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

function arrayLiteral(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * Runs the bulk load of `table`. With `rebuild`, the table's secondary indexes (every index
 * that is not backing a constraint) are dropped first and re-created at the end from their own
 * catalog definitions (pg_get_indexdef), so the schema is identical afterwards. Building an
 * index once is much faster than maintaining it row by row, GIN especially (measured: 20,000
 * posts took 55 s with the indexes in place on PGlite, 10 s with a rebuild). The dropped
 * definitions are recorded in the run, so a resumed run re-creates them even if it was
 * interrupted in the middle of the rebuild (which is one transaction: all or nothing).
 */
async function loadTable(
  database: Database,
  run: Run,
  table: 'posts' | 'follows',
  rebuild: boolean,
  /** maintenance_work_mem for the rebuild. */
  memory: string,
  timings: Record<string, number>,
  load: () => Promise<void>,
): Promise<void> {
  const loaded = table === 'posts' ? run.posts_done >= run.params.posts : run.follows_done >= run.params.follows;
  if (rebuild && !loaded) {
    await database.rawTransaction(async (tx) => {
      const indexes = await tx.query<{ name: string; definition: string }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = $1::regclass
            AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
          ORDER BY c.relname`,
        [table],
      );
      for (const index of indexes) await tx.exec(`DROP INDEX ${quoteIdent(index.name)}`);
      run.dropped = [...run.dropped, ...indexes.map((index) => ({ table, ...index }))];
      await tx.query(`UPDATE ${RUNS} SET dropped = $2::jsonb WHERE id = $1`, [run.id, JSON.stringify(run.dropped)]);
    });
  }
  await load();
  const indexes = run.dropped.filter((index) => index.table === table);
  if (indexes.length === 0) return;
  const start = performance.now();
  await database.rawTransaction(async (tx) => {
    await tx.exec(`SET LOCAL maintenance_work_mem = '${memory}'`);
    for (const index of indexes) await tx.exec(index.definition);
    const rest = run.dropped.filter((index) => index.table !== table);
    await tx.query(`UPDATE ${RUNS} SET dropped = $2::jsonb WHERE id = $1`, [run.id, JSON.stringify(rest)]);
    run.dropped = rest;
  });
  timings[`${table}Indexes`] = Math.round(performance.now() - start);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function stats(values: number[]): SizeStats {
  if (values.length === 0) return { min: 0, median: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
}

// ------------------------------------------------------------------------------------- CLI

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      posts: { type: 'string' },
      follows: { type: 'string' },
      boards: { type: 'string', default: '0' },
      saves: { type: 'string', default: '0' },
      notifications: { type: 'string', default: '0' },
      'popular-followers': { type: 'string', default: '0' },
      photos: { type: 'string', default: String(DEFAULT_PHOTOS) },
      seed: { type: 'string', default: '1' },
      password: { type: 'string', default: DEFAULT_PASSWORD },
      append: { type: 'boolean', default: false },
      'photo-width': { type: 'string' },
      'rebuild-indexes': { type: 'string' },
    },
  });
  const usage =
    'usage: npm run seed -- --users N --posts N --follows N [--boards N --saves N] [--notifications N --popular-followers N] [--photos 300] [--seed 1] [--password P] [--append]';
  const count = (name: string, raw: string | undefined): number => {
    const value = Number(raw);
    if (raw === undefined || raw === '' || !Number.isInteger(value) || value < 0) {
      throw new UsageError(`--${name} must be a non-negative integer\n${usage}`);
    }
    return value;
  };

  let options: Omit<SeedOptions, 'database' | 'storage'>;
  try {
    options = {
      users: count('users', values.users),
      posts: count('posts', values.posts),
      follows: count('follows', values.follows),
      boards: count('boards', values.boards),
      saves: count('saves', values.saves),
      notifications: count('notifications', values.notifications),
      popularFollowers: count('popular-followers', values['popular-followers']),
      photos: count('photos', values.photos),
      random: count('seed', values.seed),
      password: values.password,
      append: values.append,
      photoWidth: values['photo-width'] === undefined ? undefined : count('photo-width', values['photo-width']),
      rebuildIndexes: values['rebuild-indexes'] === undefined ? undefined : values['rebuild-indexes'] === 'true',
    };
    if (!options.password) throw new UsageError('--password must not be empty');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }

  const config = loadConfig();
  if (!config.databaseUrl && (await readServerFile(config.dataDir))) {
    console.error(`The app is running on ${config.dataDir} and owns its embedded database: stop it first.`);
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  try {
    const report = await seed({
      ...options,
      database,
      storage: createStorage(config),
      log: (line) => console.error(line),
    });
    console.log(JSON.stringify(report, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof SeedRefused || error instanceof RangeError) {
      console.error(`Refusing to seed: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

if (isMain()) process.exitCode = await main();
