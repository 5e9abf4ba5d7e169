/**
 * npm run seed -- --users 10000 --posts 100000 --follows 200000 [--photos 300] [--seed 1]
 *                 [--password benchmark-password] [--append] [--photo-width N]
 *                 [--rebuild-indexes true|false]
 *
 * Fills the configured database (DATABASE_URL → PostgreSQL, else the embedded PGlite under
 * DATA_DIR) and storage (S3_* → S3, else DATA_DIR/media) with benchmark data: realistic users
 * who can all sign in with --password, posts with hashtags and real photos made by the real
 * image pipeline, and a follow graph with a few very popular accounts. Prints a JSON summary.
 *
 * Everything drawn at random comes from a seeded PRNG, so a run is reproducible (ids, image
 * keys and timestamps relative to "now" are the exceptions). Refuses a database that already
 * has users unless --append is given, and an embedded database that a running app owns.
 * Photos are made and stored first; then every row goes in one transaction.
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
import { newImageKey, storeImage } from '../src/server/posts/post-images.js';
import { createStorage } from '../src/server/storage/create-storage.js';
import type { Storage } from '../src/server/storage/storage.js';
import { deriveHashtags } from '../src/shared/hashtags.js';
import { searchGrams, searchText } from '../src/shared/keywords.js';
import { DESCRIPTION_MAX_LENGTH } from '../src/shared/limits.js';
import { generatePhoto } from './seed-photos.js';
import { int, shuffle, stream, zipf, type Random } from './seed-random.js';
import * as words from './seed-words.js';

export interface SeedOptions {
  database: Database;
  storage: Storage;
  users: number;
  posts: number;
  follows: number;
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
  counts: { users: number; posts: number; follows: number; photos: number };
  /**
   * Wall time of each phase in milliseconds: migrate, photos, passwordHash, users, posts,
   * follows, analyze and total. posts and follows include re-creating their indexes, also shown
   * alone as postsIndexes and followsIndexes when they were rebuilt.
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
/** Loads at least this big drop and re-create secondary indexes (see SeedOptions). */
const REBUILD_INDEXES_FROM = 20_000;

interface Photo {
  key: string;
  width: number;
  height: number;
  placeholder: string;
  inputBytes: number;
  fullBytes: number;
}

export async function seed(options: SeedOptions): Promise<SeedReport> {
  const { database, storage, users: userCount, posts: postCount, follows: followCount } = options;
  const seedValue = options.random ?? 1;
  const log = options.log ?? (() => undefined);
  for (const [name, value] of Object.entries({ users: userCount, posts: postCount, follows: followCount, photos: options.photos })) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if (postCount > 0 && userCount === 0) throw new RangeError('posts need users');
  if (postCount > 0 && options.photos === 0) throw new RangeError('posts need at least one photo');
  if (followCount > userCount * (userCount - 1)) {
    throw new RangeError(`${userCount} users can have at most ${userCount * (userCount - 1)} follows`);
  }

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
  const existing = await database.rawTransaction((tx) =>
    tx.query<{ username: string; email: string }>('SELECT username, email FROM users'),
  );
  if (existing.length > 0 && !options.append) {
    throw new SeedRefused(`the database already has ${existing.length} users: seed an empty database, or pass --append to add to it`);
  }
  const rebuildIndexes = options.rebuildIndexes ?? postCount + followCount >= REBUILD_INDEXES_FROM;
  // Index builds sort in memory when they may: much faster for the big GIN index.
  const indexMemory = database.kind === 'pglite' ? '256MB' : '512MB';

  // ---- photos: the first post that uses a photo "owns" its files (images/<post id>/...).
  const photoCount = Math.min(options.photos, postCount);
  const postIds = Array.from({ length: photoCount }, () => newId());
  const photos = await phase('photos', () =>
    makePhotos({
      storage,
      seed: seedValue,
      owners: postIds,
      width: options.photoWidth,
      concurrency: options.photoConcurrency ?? 2,
      log,
    }),
  );

  const passwordHash = await phase('passwordHash', () => hashPassword(options.password ?? DEFAULT_PASSWORD));
  const users = makeUsers(stream(seedValue, 'users'), userCount, existing);
  const postsRandom = stream(seedValue, 'posts');
  const authorOrder = shuffle(
    stream(seedValue, 'authors'),
    Array.from({ length: userCount }, (_, index) => index),
  );
  // Some users post a lot: the top poster has ~1.4% of all posts, most users a handful.
  const authorRank = zipf(userCount, 1, 10);
  const postsPerUser = new Uint32Array(userCount);
  const times = spreadTimes(postsRandom, postCount, 365);
  const graph = makeFollowGraph(stream(seedValue, 'follows'), userCount, followCount);

  // All rows in one transaction: a failed run leaves the database as it was (only the photo
  // files stay behind), so it can simply be run again.
  await database.rawTransaction(async (tx) => {
    await phase('users', async () => {
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
    });

    await phase('posts', () =>
      withIndexesDropped(tx, 'posts', rebuildIndexes ? indexMemory : undefined, timings, async () => {
        const loader = new Loader(tx);
        for (let start = 0; start < postCount; start += BATCH) {
          const size = Math.min(BATCH, postCount - start);
          const rows = Array.from({ length: size }, (_, offset) => {
            const index = start + offset;
            const author = authorOrder[authorRank(postsRandom)]!;
            postsPerUser[author]! += 1;
            // Round-robin over the photos: neighbours in the feed show different pictures.
            // Several posts share one photo's files, so deleting one seeded post removes files
            // that others still show: acceptable for benchmark data.
            const photo = photos[index % photos.length]!;
            const text = words.description(postsRandom, DESCRIPTION_MAX_LENGTH);
            return {
              id: postIds[index] ?? newId(),
              userId: users[author]!.id,
              description: text,
              link: postsRandom() < 0.2 ? words.link(postsRandom) : '',
              searchGrams: searchGrams(text),
              searchText: searchText(text),
              hashtags: deriveHashtags(text),
              photo,
              createdAt: new Date(times[index]!).toISOString(),
            };
          });
          await loader.insert(
            'posts',
            [
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
            ],
            rows.map((row) => [
              row.id,
              row.userId,
              row.description,
              row.link,
              arrayLiteral(row.searchGrams),
              row.searchText,
              arrayLiteral(row.hashtags),
              row.photo.key,
              row.photo.width,
              row.photo.height,
              row.photo.placeholder,
              row.createdAt,
            ]),
          );
          if ((start / BATCH) % 10 === 9) log(`  posts: ${start + size}/${postCount}`);
        }
        await loader.flush();
      }),
    );

    await phase('follows', () =>
      withIndexesDropped(tx, 'follows', rebuildIndexes ? indexMemory : undefined, timings, async () => {
        const followsRandom = stream(seedValue, 'follow-times');
        const now = Date.now();
        const loader = new Loader(tx);
        for (let start = 0; start < graph.edges.length; start += BATCH * 5) {
          const batch = graph.edges.slice(start, start + BATCH * 5);
          await loader.insert(
            'follows',
            ['follower_id', 'target_id', 'created_at'],
            batch.map((edge) => [
              users[Math.floor(edge / userCount)]!.id,
              users[edge % userCount]!.id,
              new Date(now - followsRandom() * 365 * DAY_MS).toISOString(),
            ]),
          );
        }
        await loader.flush();
      }),
    );
  });

  await phase('analyze', () => database.rawTransaction((tx) => tx.exec('ANALYZE users, posts, follows')));
  timings.total = Math.round(performance.now() - started);

  const topBy = (counts: ArrayLike<number>, limit: number) =>
    Array.from(counts, (count, index) => ({ index, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, limit);
  return {
    database: database.kind,
    counts: { users: users.length, posts: postCount, follows: graph.edges.length, photos: photos.length },
    timingsMs: timings,
    photoBytes: { input: stats(photos.map((photo) => photo.inputBytes)), full: stats(photos.map((photo) => photo.fullBytes)) },
    indexesRebuilt: rebuildIndexes,
    popular: topBy(graph.followers, 5).map(({ index, count }) => ({ username: users[index]!.username, followers: count })),
    prolific: topBy(postsPerUser, 5).map(({ index, count }) => ({ username: users[index]!.username, posts: count })),
    sampleUsernames: users.slice(0, 5).map((user) => user.username),
  };
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

/** `count` instants in the last `days` days, ascending, at millisecond resolution. */
function spreadTimes(random: Random, count: number, days: number): Float64Array {
  const now = Date.now();
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
function insertSql(table: string, columns: string[], rows: Array<Array<string | number>>): string {
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

  async insert(table: string, columns: string[], rows: Array<Array<string | number>>): Promise<void> {
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

function sqlLiteral(value: string | number): string {
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
 * Runs a bulk load into `table`. With `rebuildMemory`, the table's secondary indexes (every
 * index that is not backing a constraint) are dropped first and re-created at the end from
 * their own catalog definitions (pg_get_indexdef), so the schema is identical afterwards.
 * Building an index once is much faster than maintaining it row by row, GIN especially
 * (measured: 20,000 posts took 55 s with the indexes in place on PGlite, 10 s with a rebuild).
 * It all happens in the caller's transaction: a failure rolls back the indexes too.
 */
async function withIndexesDropped(
  tx: RawTransaction,
  table: string,
  /** maintenance_work_mem for the rebuild; undefined = keep the indexes. */
  rebuildMemory: string | undefined,
  timings: Record<string, number>,
  load: () => Promise<void>,
): Promise<void> {
  const indexes = rebuildMemory
    ? await tx.query<{ name: string; definition: string }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = $1::regclass
            AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
          ORDER BY c.relname`,
        [table],
      )
    : [];
  for (const index of indexes) await tx.exec(`DROP INDEX ${quoteIdent(index.name)}`);
  await load();
  if (indexes.length === 0) return;
  const start = performance.now();
  await tx.exec(`SET LOCAL maintenance_work_mem = '${rebuildMemory}'`);
  for (const index of indexes) await tx.exec(index.definition);
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
      photos: { type: 'string', default: String(DEFAULT_PHOTOS) },
      seed: { type: 'string', default: '1' },
      password: { type: 'string', default: DEFAULT_PASSWORD },
      append: { type: 'boolean', default: false },
      'photo-width': { type: 'string' },
      'rebuild-indexes': { type: 'string' },
    },
  });
  const usage = 'usage: npm run seed -- --users N --posts N --follows N [--photos 300] [--seed 1] [--password P] [--append]';
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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
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
