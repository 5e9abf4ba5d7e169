import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDb, Database, RawTransaction } from '../../src/server/db/database.js';
import * as queries from '../../src/server/search/search.queries.js';
import type { PostSearchResponse, UserSearchResponse } from '../../src/shared/api/search.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import { deriveHashtags } from '../../src/shared/hashtags.js';
import { deriveKeywords, searchGrams, searchText } from '../../src/shared/keywords.js';
import { SEARCH_MAX_POSTS, SEARCH_MAX_USERS, SEARCH_MAX_WORDS, SEARCH_QUERY_MAX_LENGTH } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { captureQueries, loggingDb } from '../helpers/query-plans.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * GET /api/search/users and GET /api/search/posts (spec sections 2, 3, 5, 7, 9), plus the query
 * plans proving that the username prefix index and the search grams GIN index serve the searches.
 * Data goes straight into the database (posts with the search data and hashtags the real create
 * path derives), so the suite stays fast.
 */

// ---------------------------------------------------------------- helpers

const get = (app: FastifyInstance, url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

function query<Row>(database: Database, text: string, params: unknown[] = []): Promise<Row[]> {
  return database.rawTransaction((tx) => tx.query<Row>(text, params));
}

/** Users with exactly these usernames; id = `id-{username}`. They never sign in. */
async function insertNamedUsers(database: Database, usernames: string[]) {
  await query(
    database,
    `INSERT INTO users (id, username, email, password_hash)
     SELECT 'id-' || name, name, name || '@example.com', 'x' FROM unnest($1::text[]) AS t(name)`,
    [usernames],
  );
}

interface PostSeed {
  id: string;
  description: string;
  /** Minutes after a fixed base time: larger = newer. */
  minute: number;
}

const BASE_TIME = Date.parse('2024-03-01T12:00:00Z');
const at = (minute: number) => new Date(BASE_TIME + minute * 60_000).toISOString();

/** Posts as the create path stores them: search data and hashtags derived from the description. */
async function insertPosts(database: Database, userId: string, seeds: PostSeed[]) {
  const rows = seeds.map((seed) => ({
    id: seed.id,
    user_id: userId,
    description: seed.description,
    search_grams: searchGrams(seed.description),
    search_text: searchText(seed.description),
    hashtags: deriveHashtags(seed.description),
    image_key: `images/${userId}/${seed.id}`,
    created_at: at(seed.minute),
  }));
  await query(
    database,
    `INSERT INTO posts (id, user_id, description, link, search_grams, search_text, hashtags, image_key, width, height, placeholder, created_at)
     SELECT id, user_id, description, '', search_grams, search_text, hashtags, image_key, 400, 300, '', created_at
     FROM jsonb_to_recordset($1::jsonb)
       AS t(id text, user_id text, description text, search_grams text[], search_text text, hashtags text[], image_key text, created_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}

async function searchUsers(app: FastifyInstance, q: string, cookie?: string) {
  const response = await get(app, API.searchUsers(q), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<UserSearchResponse>().users;
}

const usernames = async (app: FastifyInstance, q: string, cookie?: string) =>
  (await searchUsers(app, q, cookie)).map((user) => user.username);

async function searchPosts(app: FastifyInstance, q: string) {
  const response = await get(app, API.searchPosts(q));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PostSearchResponse>().posts;
}

const postIds = async (app: FastifyInstance, q: string) => (await searchPosts(app, q)).map((post) => post.id);

function expectSearchQueryInvalid(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ code: 'SEARCH_QUERY_INVALID', message: 'Search for 1 to 100 characters.' });
}

/** A 4xx with a catalogue error body: never a 500, never a success. */
function expectClientError(response: LightMyRequestResponse, status?: number) {
  if (status !== undefined) expect(response.statusCode, response.body).toBe(status);
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  const body = response.json<{ code: keyof typeof ERRORS; message: string }>();
  expect(Object.keys(ERRORS)).toContain(body.code);
  expect(body.message).toBe(ERRORS[body.code]);
}

// ---------------------------------------------------------------- people

describe('GET /api/search/users', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signUp>>;
  const zeds = Array.from({ length: 15 }, (_, i) => `zed${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUp(t.app, { username: 'alice', email: 'alice@example.com', password: 'correct horse 1' });
    await insertNamedUsers(t.database, ['alfred', 'alison', 'sal', 'abc', 'a_b', 'bob', ...zeds]);
    await query(t.database, `UPDATE users SET icon_key = 'profiles/id-alfred/v1' WHERE id = 'id-alfred'`);
  });
  afterAll(() => t?.close());

  it('finds usernames starting with the query, not containing it', async () => {
    expect(await usernames(t.app, 'al')).toEqual(['alfred', 'alice', 'alison']);
    expect(await usernames(t.app, 'alf')).toEqual(['alfred']);
    expect(await usernames(t.app, 'alice')).toEqual(['alice']);
    expect(await usernames(t.app, 'sa')).toEqual(['sal']); // 'sal' is findable, just not by 'al'
    expect(await usernames(t.app, 'lic')).toEqual([]);
    expect(await usernames(t.app, 'alicex')).toEqual([]);
  });

  it('strips a leading @', async () => {
    expect(await usernames(t.app, '@al')).toEqual(['alfred', 'alice', 'alison']);
    expect(await usernames(t.app, '@alice')).toEqual(['alice']);
  });

  it('matches in lower case', async () => {
    expect(await usernames(t.app, 'AL')).toEqual(['alfred', 'alice', 'alison']);
    expect(await usernames(t.app, 'Ali')).toEqual(['alice', 'alison']);
    expect(await usernames(t.app, '@ALICE')).toEqual(['alice']);
  });

  it('ignores a query with leading or trailing whitespace (200, nobody)', async () => {
    expect(await usernames(t.app, 'al')).not.toEqual([]); // the same letters without the spaces find people
    for (const q of ['al ', ' al', '\tal', 'al\t', 'al\n', ' @al', '@al ', ' ']) {
      const response = await get(t.app, API.searchUsers(q));
      expect(response.statusCode, JSON.stringify(q)).toBe(200);
      expect(response.json(), JSON.stringify(q)).toEqual({ users: [] });
    }
  });

  it(`returns at most ${SEARCH_MAX_USERS} people, the first in username order`, async () => {
    expect(SEARCH_MAX_USERS).toBe(10);
    const found = await usernames(t.app, 'zed');
    expect(found).toHaveLength(10);
    expect(found).toEqual(zeds.slice(0, 10));
    // Narrower prefixes still find the rest.
    expect(await usernames(t.app, 'zed1')).toEqual(['zed10', 'zed11', 'zed12', 'zed13', 'zed14']);
  });

  it('never returns the signed-in user', async () => {
    expect(await usernames(t.app, 'ali')).toEqual(['alice', 'alison']);
    expect(await usernames(t.app, 'ali', alice.cookie)).toEqual(['alison']);
    expect(await usernames(t.app, 'al', alice.cookie)).toEqual(['alfred', 'alison']);
    expect(await usernames(t.app, 'alice', alice.cookie)).toEqual([]);
    expect(await usernames(t.app, '@ALICE', alice.cookie)).toEqual([]);
    // Other people's searches still find alice.
    expect(await usernames(t.app, 'alice')).toEqual(['alice']);
  });

  it("treats '_' and '%' literally, not as LIKE wildcards", async () => {
    expect(await usernames(t.app, 'a_')).toEqual(['a_b']); // not abc, alfred, alice, alison
    expect(await usernames(t.app, 'a_b')).toEqual(['a_b']);
    expect(await usernames(t.app, '_')).toEqual([]);
    expect(await usernames(t.app, '__')).toEqual([]);
    expect(await usernames(t.app, '%')).toEqual([]);
    expect(await usernames(t.app, 'a%')).toEqual([]);
    expect(await usernames(t.app, '%a')).toEqual([]);
    expect(await usernames(t.app, '@%')).toEqual([]);
    expect(await usernames(t.app, '\\')).toEqual([]);
    expect(await usernames(t.app, 'a\\')).toEqual([]);
    expect(await usernames(t.app, '\\%')).toEqual([]);
  });

  it('returns rows of uid, username and icon only (no e-mail)', async () => {
    const response = await get(t.app, API.searchUsers('al'));
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('@example.com');
    const { users } = response.json<UserSearchResponse>();
    for (const user of users) expect(Object.keys(user).sort()).toEqual(['icon', 'uid', 'username']);
    expect(users).toEqual([
      { uid: 'id-alfred', username: 'alfred', icon: expect.stringMatching(/^\/media\/profiles\/id-alfred\/v1-\d+\.webp$/) },
      { uid: alice.uid, username: 'alice', icon: null },
      { uid: 'id-alison', username: 'alison', icon: null },
    ]);
  });
});

// ---------------------------------------------------------------- posts

describe('GET /api/search/posts', () => {
  let t: TestApp;
  const zebras = Array.from({ length: 110 }, (_, i) => ({
    id: `zebra-${String(i).padStart(3, '0')}`,
    description: `zebra crossing ${i}`,
    minute: 1000 + i,
  }));

  beforeAll(async () => {
    t = await createTestApp();
    await insertNamedUsers(t.database, ['poster']);
    await insertPosts(t.database, 'id-poster', [
      { id: 'lib', description: 'Quiet library study session', minute: 1 },
      { id: 'dorm', description: '#Dorm party tonight!', minute: 2 },
      { id: 'kitchen', description: 'Kitchen cleanup\nrota', minute: 3 },
      { id: 'cafe', description: 'Café crawl', minute: 4 },
      // Ranking: the words mango, kiwi and plum.
      { id: 'three-old', description: 'mango kiwi plum', minute: 10 },
      { id: 'three-new', description: 'Plum smoothie with KIWI and mango', minute: 50 },
      { id: 'two-new', description: 'kiwi mango', minute: 90 },
      { id: 'two-old', description: 'plum jam, kiwi', minute: 30 },
      { id: 'one-newest', description: 'plum', minute: 100 },
      { id: 'one-mid', description: 'mangos', minute: 60 },
      { id: 'one-old', description: 'kiwi', minute: 20 },
      { id: 'none', description: 'banana', minute: 110 },
      // The limit: 110 posts share "zebra"; the oldest zebra post also has "quokka".
      { id: 'zebra-quokka', description: 'zebra and quokka', minute: 500 },
      ...zebras,
    ]);
  });
  afterAll(() => t?.close());

  it('returns post cards of the matching posts', async () => {
    const posts = await searchPosts(t.app, 'library');
    expect(posts).toHaveLength(1);
    const [card] = posts;
    expect(card).toMatchObject({ id: 'lib', description: 'Quiet library study session' });
    expect(card?.image).toMatchObject({ width: 400, height: 300, placeholder: '' });
    expect(card?.image.full).toMatch(/^\/media\/images\/id-poster\/lib/);
  });

  it('matches partial words (any substring of 2 or more letters of a word)', async () => {
    expect(await postIds(t.app, 'libr')).toEqual(['lib']);
    expect(await postIds(t.app, 'ibrar')).toEqual(['lib']);
    expect(await postIds(t.app, 'li')).toEqual(['lib']);
    expect(await postIds(t.app, 'libraries')).toEqual([]); // longer than any word
    expect(await postIds(t.app, 'studysession')).toEqual([]); // words are not joined
  });

  it('lower-cases the query and splits it on spaces; a post matches ANY word', async () => {
    expect(await postIds(t.app, 'LIBRARY')).toEqual(['lib']);
    expect(await postIds(t.app, 'librarykitchen')).toEqual([]);
    // Both match one word each: newest first.
    expect(await postIds(t.app, 'library kitchen')).toEqual(['kitchen', 'lib']);
    expect(await postIds(t.app, 'Library  nothinghere   KITCHEN ')).toEqual(['kitchen', 'lib']);
    // Unlike people search, surrounding spaces don't matter.
    expect(await postIds(t.app, ' library ')).toEqual(['lib']);
    // A line break in the description separates words too.
    expect(await postIds(t.app, 'rota')).toEqual(['kitchen']);
    expect(await postIds(t.app, 'cleanuprota')).toEqual([]);
  });

  it('cleans punctuation and hashtags in the query like the keywords', async () => {
    expect(await postIds(t.app, '#Dorm,')).toEqual(['dorm']);
    expect(await postIds(t.app, 'dorm')).toEqual(['dorm']);
    expect(await postIds(t.app, 'DORM!!')).toEqual(['dorm']);
    expect(await postIds(t.app, '"party"')).toEqual(['dorm']);
    expect(await postIds(t.app, 'tonight?')).toEqual(['dorm']);
    expect(await postIds(t.app, 'café')).toEqual(['cafe']);
    expect(await postIds(t.app, 'CAFÉ')).toEqual(['cafe']);
    expect(await postIds(t.app, 'cafe')).toEqual([]); // letters are kept as they are
  });

  it('returns nothing for a query with no usable words', async () => {
    // "a" is in many descriptions, but keywords are 2 or more characters long.
    for (const q of ['!!!', 'a', 'a b c', '#', '# , .', ' ']) {
      const response = await get(t.app, API.searchPosts(q));
      expect(response.statusCode, JSON.stringify(q)).toBe(200);
      expect(response.json(), JSON.stringify(q)).toEqual({ posts: [] });
    }
  });

  it('ranks posts by the number of query words matched, then newest first', async () => {
    const expected = ['three-new', 'three-old', 'two-new', 'two-old', 'one-newest', 'one-mid', 'one-old'];
    expect(await postIds(t.app, 'mango kiwi plum')).toEqual(expected);
    expect(await postIds(t.app, 'PLUM mango, #kiwi')).toEqual(expected);
    // Partial words count too: "man" matches mango and mangos, "kiw" kiwi; nothing matches plum.
    expect(await postIds(t.app, 'man kiw')).toEqual(['two-new', 'three-new', 'three-old', 'one-mid', 'two-old', 'one-old']);
    // A repeated query word counts once (else "plum" alone would tie with "kiwi mango").
    expect(await postIds(t.app, 'plum plum kiwi mango')).toEqual(expected);
  });

  it(`returns at most ${SEARCH_MAX_POSTS} posts, ranked before the cut`, async () => {
    expect(SEARCH_MAX_POSTS).toBe(100);
    const newest100 = zebras
      .map((z) => z.id)
      .reverse()
      .slice(0, 100);
    const ids = await postIds(t.app, 'zebra');
    expect(ids).toHaveLength(100);
    expect(ids).toEqual(newest100);
    // The oldest zebra post matches two words, so it comes first even though it is the oldest.
    expect(await postIds(t.app, 'zebra quokka')).toEqual(['zebra-quokka', ...newest100.slice(0, 99)]);
  });

  it(`uses only the first ${SEARCH_MAX_WORDS} distinct words of the query`, async () => {
    expect(SEARCH_MAX_WORDS).toBe(10);
    const filler = ['qa', 'qb', 'qc', 'qd', 'qe', 'qf', 'qg', 'qh', 'qi'];
    expect(await postIds(t.app, [...filler, 'library'].join(' '))).toEqual(['lib']);
    expect(await postIds(t.app, [...filler, 'qj', 'library'].join(' '))).toEqual([]);
    // Repeats and words that clean to nothing don't use up a place.
    expect(await postIds(t.app, ['qa', 'qa', '!!', ...filler.slice(1), 'library'].join(' '))).toEqual(['lib']);
  });
});

// ---------------------------------------------------------------- bad input

describe('search: bad input', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await insertNamedUsers(t.database, ['alfred']);
    await insertPosts(t.database, 'id-alfred', [{ id: 'lib', description: 'library', minute: 1 }]);
  });
  afterAll(() => t?.close());

  const endpoints = ['/api/search/users', '/api/search/posts'] as const;

  it('refuses a missing or empty q with SEARCH_QUERY_INVALID', async () => {
    for (const path of endpoints) {
      expectSearchQueryInvalid(await get(t.app, path));
      expectSearchQueryInvalid(await get(t.app, `${path}?q=`));
    }
  });

  it(`accepts ${SEARCH_QUERY_MAX_LENGTH} characters and refuses ${SEARCH_QUERY_MAX_LENGTH + 1}`, async () => {
    expect(SEARCH_QUERY_MAX_LENGTH).toBe(100);
    const userQ = `alf${'r'.repeat(97)}`;
    expect(userQ).toHaveLength(100);
    expect(await usernames(t.app, userQ)).toEqual([]);
    expectSearchQueryInvalid(await get(t.app, API.searchUsers(`${userQ}r`)));

    const postQ = `library ${'x'.repeat(92)}`;
    expect(postQ).toHaveLength(100);
    expect(await postIds(t.app, postQ)).toEqual(['lib']);
    expectSearchQueryInvalid(await get(t.app, API.searchPosts(`${postQ}x`)));
    expectSearchQueryInvalid(await get(t.app, API.searchPosts(`library${' '.repeat(94)}`)));
  });

  it('refuses a very long q with a 400', async () => {
    for (const path of endpoints) {
      const response = await get(t.app, `${path}?q=${'a'.repeat(2000)}`);
      expectClientError(response, 400);
      expect(['SEARCH_QUERY_INVALID', 'BAD_REQUEST']).toContain(response.json().code);
    }
  });

  it('refuses unknown query parameters', async () => {
    for (const path of endpoints) {
      const response = await get(t.app, `${path}?q=alf&page=2`);
      expectClientError(response, 400);
      expect(response.json().code).toBe('BAD_REQUEST');
    }
  });

  it('answers a repeated q with a 4xx, not a 500', async () => {
    for (const path of endpoints) expectClientError(await get(t.app, `${path}?q=a&q=b`));
  });

  it('never fails with odd encodings', async () => {
    for (const path of endpoints) {
      for (const raw of ['%', '%E0%A4%A', '%ZZ', '%F0%9F%98%80', '%2F..%2F', '%C3%28', '%FF%FE']) {
        const response = await get(t.app, `${path}?q=${raw}`);
        expect(response.statusCode, `${path}?q=${raw}: ${response.body}`).toBeLessThan(500);
      }
    }
  });

  // PostgreSQL refuses a NUL byte in text; that is the client's bad input, never a 500.
  it('a NUL character anywhere is a 400, not a 500', async () => {
    for (const raw of ['%00', 'al%00', '%00al']) {
      const response = await get(t.app, `/api/search/users?q=${raw}`);
      expect(response.statusCode, `?q=${raw}: ${response.body}`).toBe(400);
    }
    expect((await get(t.app, '/api/users/%00')).statusCode).toBe(400);
    expect((await get(t.app, '/api/users/ab%00c/posts')).statusCode).toBe(400);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: 'ab\u0000c', password: 'correct horse 1' },
    });
    expect(login.statusCode).toBe(400);
  });

  it('a NUL character in a post query finds nothing, without an error', async () => {
    for (const raw of ['%00', 'lib%00', 'li%00brary']) {
      const response = await get(t.app, `/api/search/posts?q=${raw}`);
      expect(response.statusCode, `?q=${raw}: ${response.body}`).toBe(200);
    }
    // NUL is cleaned out of a word like any other non-letter.
    expect(await postIds(t.app, 'li\u0000brary')).toEqual(['lib']);
  });

  it('keeps serving afterwards', async () => {
    expect(await usernames(t.app, 'alf')).toEqual(['alfred']);
    expect(await postIds(t.app, 'libr')).toEqual(['lib']);
  });
});

// ---------------------------------------------------------------- query plans

async function explain(tx: RawTransaction, captured: { sql: string; params: unknown[] }) {
  const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${captured.sql}`, captured.params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** Runs work in a transaction that is then rolled back. */
async function rolledBack<T>(database: Database, work: (tx: RawTransaction) => Promise<T>): Promise<T> {
  const rollback = new Error('rollback');
  let result: T | undefined;
  await database
    .rawTransaction(async (tx) => {
      result = await work(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}

/** The prefix index serves the LIKE: a range condition with the pattern operators, no sequential scan. */
function expectPrefixIndexPlan(plan: string) {
  expect(plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) users_username_prefix_idx/);
  expect(plan).toMatch(/Index Cond: \(\(username ~>=~ /);
  expect(plan).not.toMatch(/Seq Scan on users/);
}

/**
 * Under the C collation (PGlite's) the plain UNIQUE index on username can serve a prefix range
 * too, and the planner may prefer it because it also gives the ORDER BY for free. Under any
 * other collation only users_username_prefix_idx can.
 */
function expectPeoplePlan(plan: string, cCollation: boolean) {
  if (cCollation && /users_username_key/.test(plan)) {
    expect(plan).toMatch(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on) users_username_key/);
    expect(plan).toMatch(/Index Cond: \(\(username >= /);
    expect(plan).not.toMatch(/Seq Scan on users/);
  } else {
    expectPrefixIndexPlan(plan);
  }
}

/**
 * The GIN index finds the matches; no scan tests search grams row by row. (Reading the winners'
 * cards may still scan a small table: for 2,000 rows a hash join beats 100 index lookups.)
 */
function expectPostsPlan(plan: string) {
  expect(plan).toMatch(/Bitmap Index Scan on posts_search_grams_idx/);
  expect(plan).toMatch(/Index Cond: \(search_grams @> /);
  expect(plan).not.toMatch(/Seq Scan on posts[^\n]*\n\s*Filter: \(search_grams/);
}

describe('search: query plans use the indexes', () => {
  let t: TestApp;
  let cCollation: boolean;
  const plans: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const [db] = await query<{ datcollate: string }>(t.database, 'SELECT datcollate FROM pg_database WHERE datname = current_database()');
    cCollation = db?.datcollate === 'C' || db?.datcollate === 'POSIX';
    await insertNamedUsers(t.database, ['alice', 'alfred', 'bob']);
    await insertPosts(t.database, 'id-alice', [
      { id: 'lib', description: 'library', minute: 1 },
      { id: 'dorm', description: '#dorm life', minute: 2 },
    ]);
  });
  afterAll(() => {
    if (process.env.SEARCH_PRINT_PLANS)
      console.log(
        Object.entries(plans)
          .map(([name, plan]) => `--- ${name}\n${plan}`)
          .join('\n'),
      );
    return t?.close();
  });

  const peopleQuery = (viewer: string | undefined) => (db: AppDb) => queries.usersByPrefix(db, 'al', viewer, SEARCH_MAX_USERS);
  const postsQuery = (db: AppDb) => queries.rankedPosts(db, ['library', 'dorm'], SEARCH_MAX_POSTS);

  it('on small tables (sequential scans off), signed in and out', async () => {
    for (const viewer of [undefined, 'id-alice']) {
      const people = await captureQueries(t.database, peopleQuery(viewer));
      expect(people.sql).toMatch(/LIKE/);
      const plan = await t.database.rawTransaction(async (tx) => {
        await tx.exec('SET LOCAL enable_seqscan = off');
        return explain(tx, people);
      });
      plans[`people, small, seqscan off, viewer ${viewer ?? 'none'}`] = plan;
      expectPeoplePlan(plan, cCollation);
      const planWithoutUnique = await rolledBack(t.database, async (tx) => {
        await tx.exec('ALTER TABLE users DROP CONSTRAINT users_username_key; SET LOCAL enable_seqscan = off');
        return explain(tx, people);
      });
      plans[`people, small, seqscan off, viewer ${viewer ?? 'none'}, without the UNIQUE index`] = planWithoutUnique;
      expectPrefixIndexPlan(planWithoutUnique);
    }
    const posts = await captureQueries(t.database, postsQuery);
    expect(posts.sql).toMatch(/@>/);
    const plan = await t.database.rawTransaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      return explain(tx, posts);
    });
    plans['posts, small, seqscan off'] = plan;
    expectPostsPlan(plan);
  });

  it('the plan checks fail without the indexes', async () => {
    const people = await captureQueries(t.database, peopleQuery('id-alice'));
    const posts = await captureQueries(t.database, postsQuery);
    const [peoplePlan, postsPlan] = await rolledBack(t.database, async (tx) => {
      await tx.exec(
        'DROP INDEX users_username_prefix_idx; ALTER TABLE users DROP CONSTRAINT users_username_key; DROP INDEX posts_search_grams_idx; SET LOCAL enable_seqscan = off',
      );
      return [await explain(tx, people), await explain(tx, posts)] as const;
    });
    expect(() => expectPeoplePlan(peoplePlan, true)).toThrow();
    expect(peoplePlan).toMatch(/Seq Scan on users/);
    expect(() => expectPostsPlan(postsPlan)).toThrow();
    expect(postsPlan).toMatch(/Seq Scan on posts/);
    // Still there afterwards.
    const indexes = await query<{ indexname: string }>(
      t.database,
      `SELECT indexname FROM pg_indexes WHERE indexname IN ('users_username_prefix_idx', 'users_username_key', 'posts_search_grams_idx') ORDER BY 1`,
    );
    expect(indexes.map((row) => row.indexname)).toEqual(['posts_search_grams_idx', 'users_username_key', 'users_username_prefix_idx']);
    expect(await usernames(t.app, 'al')).toEqual(['alfred', 'alice']);
  });

  it('on 2000 users and 2000 posts, the planner picks the indexes by itself', async () => {
    const count = 2000;
    await query(
      t.database,
      `INSERT INTO users (id, username, email, password_hash)
       SELECT 'gen-' || i, 'gen' || lpad(i::text, 5, '0'), 'gen' || i || '@example.com', 'x' FROM generate_series(1, $1::int) AS i`,
      [count],
    );
    // Every post shares some words (like real ones share "st", "in"...) and has rarer ones. Their
    // search data is what searchGrams and searchText derive, computed here by SQL for speed.
    await query(
      t.database,
      `WITH gen AS (
         SELECT i, 'post k' || lpad((i % 700)::text, 4, '0') || ' w' || (i % 37) || ' v' || (i % 53) AS text
         FROM generate_series(1, $1::int) AS i
       )
       INSERT INTO posts (id, user_id, description, search_grams, search_text, image_key, width, height, created_at)
       SELECT 'gen-' || i, 'gen-' || (1 + i % 100), text,
              ARRAY(SELECT DISTINCT substr(w, s, n) FROM unnest(string_to_array(text, ' ')) AS w,
                      generate_series(1, char_length(w)) AS s, generate_series(2, 3) AS n
                    WHERE s + n - 1 <= char_length(w)),
              text, 'images/gen/' || i, 400, 300, now() - i * interval '1 minute'
       FROM gen`,
      [count],
    );
    // What autovacuum does on a PostgreSQL server: fresh statistics, and the GIN pending list
    // merged into the index. Plain ANALYZE leaves the pending list, which makes the bitmap scan
    // look costly enough that both databases then pick a Seq Scan on posts (PGlite runs no
    // autovacuum at all).
    await t.database.orm.execute(sql.raw('VACUUM ANALYZE users'));
    await t.database.orm.execute(sql.raw('VACUUM ANALYZE posts'));

    for (const viewer of [undefined, 'gen-5']) {
      const people = await captureQueries(t.database, (db) => queries.usersByPrefix(db, 'gen0001', viewer, SEARCH_MAX_USERS));
      const plan = await t.database.rawTransaction((tx) => explain(tx, people));
      plans[`people, ${count} users, viewer ${viewer ?? 'none'}`] = plan;
      expectPeoplePlan(plan, cCollation);
      const planWithoutUnique = await rolledBack(t.database, async (tx) => {
        await tx.exec('ALTER TABLE users DROP CONSTRAINT users_username_key');
        return explain(tx, people);
      });
      plans[`people, ${count} users, viewer ${viewer ?? 'none'}, without the UNIQUE index`] = planWithoutUnique;
      expectPrefixIndexPlan(planWithoutUnique);
    }
    const posts = await captureQueries(t.database, (db) => queries.rankedPosts(db, ['k0042', 'w5'], SEARCH_MAX_POSTS));
    const plan = await t.database.rawTransaction((tx) => explain(tx, posts));
    plans[`posts, ${count} posts`] = plan;
    expectPostsPlan(plan);

    // And the results are the right ones.
    const found = await searchUsers(t.app, 'gen0001');
    expect(found.map((user) => user.username)).toEqual(Array.from({ length: 10 }, (_, i) => `gen0001${i}`));
    const ids = await postIds(t.app, 'k0042');
    expect(ids).toEqual(
      Array.from({ length: count }, (_, i) => i + 1)
        .filter((i) => i % 700 === 42)
        .map((i) => `gen-${i}`),
    );
  });
});

// ---------------------------------------------------------------- windowed ranking

describe('post search: ranking the newest posts first gives the same page as ranking all of them', () => {
  let t: TestApp;
  const vocabulary = ['coffee', 'dorm', 'library', 'exam', 'pizza', 'laundry'];
  let seeds: PostSeed[] = [];

  /** The ranking by definition: every post scored, most words matched, then newest, then id. */
  function reference(words: string[], limit: number): string[] {
    return seeds
      .map((seed) => ({ seed, keywords: new Set(deriveKeywords(seed.description)) }))
      .map(({ seed, keywords }) => ({ seed, matched: words.filter((word) => keywords.has(word)).length }))
      .filter((row) => row.matched > 0)
      .sort((a, b) => b.matched - a.matched || b.seed.minute - a.seed.minute || (a.seed.id < b.seed.id ? 1 : -1))
      .slice(0, limit)
      .map((row) => row.seed.id);
  }

  beforeAll(async () => {
    t = await createTestApp();
    await insertNamedUsers(t.database, ['ranker']);
    // 300 posts of one to four words; a third share their minute with another post (ties).
    let state = 7;
    const next = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
    seeds = Array.from({ length: 300 }, (_, i) => ({
      id: `w-${String(i).padStart(3, '0')}`,
      minute: i - (i % 3 === 0 ? 1 : 0),
      description: Array.from({ length: 1 + next(4) }, () => vocabulary[next(vocabulary.length)]).join(' '),
    }));
    await insertPosts(t.database, 'id-ranker', seeds);
  });
  afterAll(() => t.close());

  it('for any query of one to three words, windows of 10 and 60 posts, pages of 1 to 40', async () => {
    const fc = await import('fast-check');
    const { PostSearch } = await import('../../src/server/search/post-search.js');
    const windowed = new PostSearch(t.database.orm, { windows: [10, 60] });
    // The newest posts read by walking them, or through the GIN index: the same page either way.
    const walked = new PostSearch(t.database.orm, { windows: [10, 60], lookup: 'walk' });
    const looked = new PostSearch(t.database.orm, { windows: [10, 60], lookup: 'index' });
    const whole = new PostSearch(t.database.orm, { windows: [] });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...vocabulary, 'cof', 'ry', 'zz', 'x'), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 40 }),
        async (words, limit) => {
          const expected = reference(words, limit);
          expect((await windowed.cards(words, limit)).map((card) => card.id)).toEqual(expected);
          expect((await walked.cards(words, limit)).map((card) => card.id)).toEqual(expected);
          expect((await looked.cards(words, limit)).map((card) => card.id)).toEqual(expected);
          expect((await whole.cards(words, limit)).map((card) => card.id)).toEqual(expected);
        },
      ),
      { numRuns: 150, seed: 42 },
    );
    // 600 searches: over the default 30 s at a load average of 28 on 2 cores.
  }, 120_000);

  it('and so do two words ranked in two tiers, once the grams have statistics', async () => {
    const fc = await import('fast-check');
    const { PostSearch } = await import('../../src/server/search/post-search.js');
    // Words that go together: 40 newer posts say both "pizza" and "exam".
    const together = Array.from({ length: 40 }, (_, i) => ({
      id: `t-${String(i).padStart(2, '0')}`,
      minute: 400 + i,
      description: 'pizza exam',
    }));
    await insertPosts(t.database, 'id-ranker', together);
    seeds = [...seeds, ...together];
    await t.database.orm.execute(sql.raw('ANALYZE posts'));
    const statements: string[] = [];
    const logged = loggingDb(t.database, (text) => statements.push(text));
    // A first window of 150 posts affords reading the posts with both words (a few pairs have
    // more, and are ranked by the windows); those with either are found through the GIN index,
    // or by walking the newest 150 posts.
    const tiered = new PostSearch(logged, { windows: [150, 300] });
    const walked = new PostSearch(logged, { windows: [150, 300], lookup: 'walk' });
    // Small pages of words found in many posts: read among the newest 30, 150 or 300 posts alone.
    const windowed = new PostSearch(logged, { windows: [30, 150, 300] });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...vocabulary, 'cof', 'ry', 'zz'), { minLength: 2, maxLength: 2 }),
        fc.integer({ min: 1, max: 60 }),
        async (words, limit) => {
          const expected = reference(words, limit);
          expect((await tiered.cards(words, limit)).map((card) => card.id)).toEqual(expected);
          expect((await walked.cards(words, limit)).map((card) => card.id)).toEqual(expected);
          expect((await windowed.cards(words, limit)).map((card) => card.id)).toEqual(expected);
        },
      ),
      { numRuns: 100, seed: 7 },
    );
    // The statistics (read once) aside: one statement for the posts with both words, and one
    // for those with either when they do not fill the page.
    for (const limit of [30, 50]) {
      statements.length = 0;
      expect((await tiered.cards(['pizza', 'exam'], limit)).map((card) => card.id)).toEqual(reference(['pizza', 'exam'], limit));
      expect(statements.filter((text) => !text.includes('pg_stats'))).toHaveLength(limit <= 40 ? 1 : 2);
    }
    // 300 searches and more: over the default 30 s at a load average of 28 on 2 cores.
  }, 120_000);
});

describe('post search: two words with a page expected among the newest posts, yet few in the table', () => {
  let t: TestApp;
  let seeds: PostSeed[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await insertNamedUsers(t.database, ['pairer']);
    // 1,500 posts: "alpha" in 3 of every 10, "beta" in 3 of every 10 tens, so both in 9 %, spread
    // evenly; each post also has one of 300 rarer words (none sharing a gram with the two).
    const letters = 'cdfgkmnoqrsuvwxyz';
    let state = 11;
    const next = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
    const rare = Array.from({ length: 300 }, () => Array.from({ length: 6 }, () => letters[next(letters.length)]).join(''));
    seeds = Array.from({ length: 1500 }, (_, i) => ({
      id: `p-${String(i).padStart(4, '0')}`,
      minute: i,
      description: [i % 10 < 3 ? 'alpha' : '', Math.floor(i / 10) % 10 < 3 ? 'beta' : '', rare[i % rare.length]].join(' '),
    }));
    await insertPosts(t.database, 'id-pairer', seeds);
    await t.database.orm.execute(sql.raw('ANALYZE posts'));
  });
  afterAll(() => t.close());

  it('reads the posts with both among the newest 600 (of 1,500), not all 135 of them', async () => {
    const { PostSearch } = await import('../../src/server/search/post-search.js');
    const statements: Array<{ text: string; params: unknown[] }> = [];
    const logged = loggingDb(t.database, (text, params) => statements.push({ text, params }));
    // About 54 posts with both among the newest 600, 135 in all: a page of 30 is there, and the
    // table holds fewer than the first window's 200 (which would read them all).
    const search = new PostSearch(logged, { windows: [200, 600] });
    const both = seeds.filter((seed) => seed.description.includes('alpha') && seed.description.includes('beta'));
    const newest = both.sort((a, b) => b.minute - a.minute).map((seed) => seed.id);
    expect((await search.cards(['alpha', 'beta'], 30)).map((card) => card.id)).toEqual(newest.slice(0, 30));
    const reads = statements.filter(({ text }) => !text.includes('pg_stats') && !text.includes('offset'));
    expect(reads).toHaveLength(1);
    // Bounded by the 600th newest post's time (the window), not a read of every match.
    expect(reads[0]!.params).toContain(`${at(900).replace('T', ' ').replace('.000Z', '+00')}`);
  });
});
