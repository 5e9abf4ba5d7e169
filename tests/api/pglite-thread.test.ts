import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { PGliteThread } from '../../src/server/db/pglite-thread.js';
import { hasSqlState } from '../../src/server/db/sql-state.js';
import { isDatabaseUnavailable } from '../../src/server/db/unavailable.js';
import { API } from '../../src/shared/api/paths.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { TEST_DATABASE_URL } from '../helpers/services.js';
import { createTestApp, createTestDatabase, type TestApp } from '../helpers/test-app.js';

/** A statement that keeps the embedded database busy for about a second or more. */
const SLOW = sql`SELECT count(*) FROM generate_series(1, 4000000)`;
/**
 * Opening a database thread boots PGlite in it, and the slow statement runs ~1 s alone: tests of
 * 8 to 30 s (and two over the default 30 s timeout) in a full run at load 18 on 2 cores. This
 * bounds only those waits.
 */
const LOADED = { timeout: 120_000 };
/** More timer turns than a loop held by the statement could make (it makes none). */
const MANY_TURNS = 20;

/**
 * The embedded database in a thread of its own (src/server/db/pglite-thread.ts), as the server
 * runs it: the same answers as in one thread, and a slow statement no longer stops the server.
 */
describe.skipIf(TEST_DATABASE_URL)('the embedded database in its own thread', LOADED, () => {
  let database: Database;

  beforeAll(async () => {
    database = (await createTestDatabase({ ownThread: true })).database;
  });
  afterAll(() => database.close());

  it('answers as PGlite does: drizzle gets timestamps as text, arrays and numbers as values', async () => {
    const result = await database.orm.execute(
      sql`SELECT '2026-01-02 03:04:05.123456+00'::timestamptz AS at, ARRAY['a', 'b'] AS tags, 7::int AS n`,
    );
    const { rows } = result as { rows: unknown[] };
    expect(rows).toEqual([{ at: '2026-01-02 03:04:05.123456+00', tags: ['a', 'b'], n: 7 }]);
  });

  it('reads the answers it moves across as bytes with the parsers PGlite itself has, arrays and nulls too', async () => {
    const text = `SELECT true AS yes, 9007199254740993::int8 AS big, 1.5::float8 AS f, 12.50::numeric AS num, '{"k": [1, 2]}'::jsonb AS j,
      ARRAY[1, 2]::int[] AS ints, ARRAY[true, NULL] AS flags, ARRAY['a,b', 'c"d', NULL]::text[] AS tricky, NULL::text AS nothing,
      'ünï 🎉' AS unicode, ARRAY['{"a": 1}']::jsonb[] AS objects, $1::text AS given`;
    const plain = new PGlite();
    try {
      const expected = (await plain.query(text, ['x'])).rows;
      const { rows } = (await database.orm.execute(sql.raw(text.replace('$1::text', "'x'::text")))) as { rows: unknown[] };
      expect(rows).toEqual(expected);
      expect(rows).toEqual([expect.objectContaining({ big: 9007199254740993n, tricky: ['a,b', 'c"d', null], flags: [true, null] })]);
    } finally {
      await plain.close();
    }
  });

  it('keeps the SQLSTATE and details of an error', async () => {
    await query(database, 'CREATE TABLE thread_unique (id int PRIMARY KEY)');
    await query(database, 'INSERT INTO thread_unique VALUES (1)');
    const error = await database.orm.execute(sql`INSERT INTO thread_unique VALUES (1)`).catch((e: unknown) => e);
    expect(hasSqlState(error, '23505')).toBe(true);
    expect((error as { cause: { constraint: string } }).cause.constraint).toBe('thread_unique_pkey');
  });

  it('commits a transaction, and rolls back one that throws', async () => {
    await query(database, 'CREATE TABLE thread_tx (n int)');
    await database.orm.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_tx VALUES (1)`);
    });
    await expect(
      database.orm.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO thread_tx VALUES (2)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await query(database, 'SELECT n FROM thread_tx')).toEqual([{ n: 1 }]);
  });

  it('runs a statement outside an open transaction only after it ends, as one thread did', async () => {
    await query(database, 'CREATE TABLE thread_order (n int)');
    const seen: string[] = [];
    let outside: Promise<unknown> | undefined;
    await database.rawTransaction(async (tx) => {
      await tx.query('INSERT INTO thread_order VALUES (1)');
      outside = query(database, 'SELECT count(*)::int AS n FROM thread_order').then((rows) =>
        seen.push(`outside saw ${JSON.stringify(rows)}`),
      );
      await sleep(50);
      seen.push('transaction ends');
    });
    await outside;
    expect(seen).toEqual(['transaction ends', 'outside saw [{"n":1}]']);
  });

  it('dumps its files, and a database opened from the dump has the same rows', async () => {
    await query(database, 'CREATE TABLE thread_dump (word text)');
    await query(database, "INSERT INTO thread_dump VALUES ('kept')");
    const copy = await openDatabase({ ownThread: true, loadDump: await database.dump!() });
    try {
      expect(await query(copy, 'SELECT word FROM thread_dump')).toEqual([{ word: 'kept' }]);
    } finally {
      await copy.close();
    }
  });

  it('keeps the server thread free while a statement runs', async () => {
    // Counts the server thread's timer turns (one at a time, 1 ms apart) until the statement
    // answers. In one thread the statement holds the loop from start to end: 0 turns (measured).
    // In its own thread the loop turns all along: 1,762 in 3.3 s at load 11. A fixed count, not
    // ticks per millisecond of the statement, so a loaded machine cannot push it near 0.
    let turns = 0;
    let answered = false;
    const turn = () => {
      if (answered) return;
      turns += 1;
      setTimeout(turn, 1);
    };
    setTimeout(turn, 1);
    await database.orm.execute(SLOW);
    answered = true;
    expect(turns).toBeGreaterThan(MANY_TURNS);
  });
});

describe.skipIf(TEST_DATABASE_URL)('the embedded database thread, opened and closed', LOADED, () => {
  it('refuses parsers it cannot carry across threads', async () => {
    const thread = await PGliteThread.open({ dir: undefined, loadDump: undefined });
    try {
      await expect(thread.query('SELECT 1', [], { parsers: { 23: (value) => Number(value) } })).rejects.toThrow(/keep the text/);
      expect((await thread.query<{ n: string }>('SELECT 1 AS n', [], { parsers: { 23: (value) => value } })).rows).toEqual([{ n: '1' }]);
    } finally {
      await thread.close();
    }
  });

  it('fails every call after closing, as a lost database connection', async () => {
    const thread = await PGliteThread.open({ dir: undefined, loadDump: undefined });
    await thread.close();
    await thread.close();
    const error = await thread.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});

describe.skipIf(TEST_DATABASE_URL)('a slow statement on the embedded database', LOADED, () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    // As the server runs: the database in its own thread, sessions remembered (SESSION_CACHE_MS).
    t = await createTestApp({ sessionCacheMs: 60_000 }, { ownThread: true });
    const author = await signUp(t.app);
    expect((await createPost(t.app, author.cookie, { description: 'a lamp #dorm', bytes: await jpeg(60, 40) })).statusCode).toBe(201);
    cookie = (await signUp(t.app)).cookie;
  });
  afterAll(() => t.close());

  it('does not hold up a home feed request the caches can answer', async () => {
    const feed = () => t.app.inject({ method: 'GET', url: API.posts, headers: { cookie } });
    expect((await feed()).statusCode).toBe(200);
    const order: string[] = [];
    const slow = t.database.orm.execute(SLOW).then(() => order.push('slow statement'));
    // Give the statement time to start in the database thread.
    await sleep(20);
    const response = await feed();
    order.push('home feed');
    await slow;
    expect(response.statusCode).toBe(200);
    expect(response.json<{ posts: unknown[] }>().posts).toHaveLength(1);
    expect(order).toEqual(['home feed', 'slow statement']);
  });
});
