import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostSearchResponse } from '../../src/shared/api/search.js';
import { cleanWords, deriveKeywords, searchGrams, searchText } from '../../src/shared/keywords.js';
import { DESCRIPTION_MAX_LENGTH } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { insertPosts, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, emptyPostgres, type TestApp } from '../helpers/test-app.js';

/**
 * The search index is bounded per post (issue 12): a description stores at most a few hundred
 * search grams, whatever its characters, and a post is still found by exactly the words the
 * spec's keywords would find it by: any substring of 2 or more characters of one of its words.
 */

const INDEX_BYTES_PER_POST = 16 * 1024;

/** One 200-character word of distinct CJK ideographs, shuffled; each n has its own 200 (n < 100): no key shared. */
function worstDescription(n: number): string {
  return Array.from({ length: DESCRIPTION_MAX_LENGTH }, (_, i) => String.fromCodePoint(0x4e00 + n * 200 + ((i * 67) % 200))).join('');
}

const indexBytes = async (t: TestApp) =>
  Number((await query<{ bytes: string }>(t.database, `SELECT pg_indexes_size('posts') AS bytes`))[0]!.bytes);

async function searchIds(t: TestApp, q: string): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: API.searchPosts(q) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PostSearchResponse>().posts.map((post) => post.id);
}

describe('search index size', () => {
  let t: TestApp;
  let author: Awaited<ReturnType<typeof signUp>>;
  let photo: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    author = await signUp(t.app);
    photo = await jpeg(64, 48);
  });
  afterAll(() => t?.close());

  async function create(description: string): Promise<string> {
    const response = await createPost(t.app, author.cookie, { bytes: photo, type: 'image/jpeg', description });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ post: { id: string } }>().post.id;
  }

  it(`a worst-case description adds at most ${INDEX_BYTES_PER_POST / 1024} KB of index per post, and is still found`, async () => {
    // Some ordinary posts first, so the index has its usual shape.
    for (let i = 0; i < 5; i++) await create(`Quiet library study session ${i} #finals`);
    const count = 12;
    const before = await indexBytes(t);
    const ids: string[] = [];
    for (let n = 0; n < count; n++) ids.push(await create(worstDescription(n)));
    const perPost = ((await indexBytes(t)) - before) / count;
    expect(perPost).toBeLessThanOrEqual(INDEX_BYTES_PER_POST);
    // Every substring of 2+ characters still finds it: short, gram-sized and long.
    const chars = Array.from(worstDescription(3));
    for (const [start, length] of [
      [0, 2],
      [17, 3],
      [50, 4],
      [120, 37],
      [0, 100],
    ] as const) {
      expect(await searchIds(t, chars.slice(start, start + length).join(''))).toEqual([ids[3]]);
    }
    expect(await searchIds(t, `${chars[5]}${chars[4]}${chars[3]}`)).toEqual([]);
  });

  it('so does a description just within the budget for pairs and triples', async () => {
    // 85 distinct ideographs: 84 pairs and 83 triples, just under SEARCH_GRAMS_BUDGET.
    const description = (n: number) => worstDescription(20 + n).slice(0, 85);
    expect(searchGrams(description(0))).toHaveLength(84 + 83);
    const count = 12;
    const before = await indexBytes(t);
    const ids: string[] = [];
    for (let n = 0; n < count; n++) ids.push(await create(description(n)));
    expect(((await indexBytes(t)) - before) / count).toBeLessThanOrEqual(INDEX_BYTES_PER_POST);
    expect(await searchIds(t, Array.from(description(4)).slice(10, 16).join(''))).toEqual([ids[4]]);
  });
});

describe('post search matches the keywords rule on the real database', () => {
  let t: TestApp;
  const char = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...'abcdeorstABC01'.split('')) },
    { weight: 3, arbitrary: fc.constantFrom(' ', ' ', '\n', '#', ',', '-', "'") },
    { weight: 2, arbitrary: fc.constantFrom('é', 'É', 'ß', '東', '京', '𝒜', '😀', 'İ') },
  );
  const descriptions = fc.sample(fc.string({ unit: char, maxLength: 60 }), { numRuns: 80, seed: 12 });
  const ids = descriptions.map((_, i) => `p${String(i).padStart(3, '0')}`);

  beforeAll(async () => {
    t = await createTestApp();
    await query(t.database, `INSERT INTO users (id, username, email, password_hash) VALUES ('id-rule', 'rule', 'rule@example.com', 'x')`);
    await insertPosts(
      t.database,
      descriptions.map((description, i) => ({ id: ids[i]!, userId: 'id-rule', at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() })),
    );
    for (const [i, description] of descriptions.entries()) {
      await query(t.database, 'UPDATE posts SET description = $1, search_grams = $2, search_text = $3 WHERE id = $4', [
        description,
        searchGrams(description),
        searchText(description),
        ids[i],
      ]);
    }
  });
  afterAll(() => t?.close());

  it('a post is found by a word iff the word is a substring of one of its cleaned words', async () => {
    // Query words: pieces of the posts' own words (found), and pieces of two words run together (mostly not).
    const words = descriptions.flatMap((description) => cleanWords(description));
    const joined = [...words, ...words.slice(1).map((word, i) => `${words[i]}${word}`)];
    const queryWord = fc.constantFrom(...joined).chain((word) => {
      const chars = Array.from(word);
      return fc.tuple(fc.nat(chars.length), fc.nat(chars.length)).map(([a, b]) => chars.slice(Math.min(a, b), Math.max(a, b)).join(''));
    });
    await fc.assert(
      fc.asyncProperty(
        queryWord.filter((word) => Array.from(word).length >= 2 && word.length <= 100),
        async (word) => {
          // Newest first: the spec's rule, applied to every post.
          const expected = ids.filter((_, i) => deriveKeywords(descriptions[i]!).includes(word)).reverse();
          expect(await searchIds(t, word), JSON.stringify(word)).toEqual(expected);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});

/** A database migrated up to (and including) `version`, as it was before a later migration. */
async function databaseAt(version: number): Promise<{ database: Database; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const { database, drop } = adminUrl ? await emptyPostgres(adminUrl) : { database: await openDatabase({}), drop: async () => undefined };
  await database.rawTransaction(async (tx) => {
    await tx.exec(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
  });
  return { database, drop };
}

describe('migration 8 converts the stored keywords', () => {
  it('to the grams and words the app derives: every post is found by the same words as before', async () => {
    const { database, drop } = await databaseAt(6);
    try {
      const descriptions = [
        'Quiet library study session',
        '#Dorm party tonight! dorm DORM',
        'Kitchen cleanup\nrota, e-mail café',
        '東京タワー 𝒜bc abab aaaa',
        'ab abc bc a',
        worstDescription(1),
        '',
        '!!! a b',
      ];
      await database.rawTransaction(async (tx) => {
        await tx.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ('u1', 'migrator', 'm@example.com', 'x')`);
        for (const [i, description] of descriptions.entries()) {
          await tx.query(
            `INSERT INTO posts (id, user_id, description, keywords, image_key, width, height) VALUES ($1, 'u1', $2, $3, 'images/x', 1, 1)`,
            [`m${i}`, description, deriveKeywords(description)],
          );
        }
      });
      expect(await migrate(database)).toEqual(MIGRATIONS.filter((m) => m.version > 6).map((m) => m.version));
      const rows = await database.rawTransaction((tx) =>
        tx.query<{ id: string; search_grams: string[]; search_text: string }>(
          'SELECT id, search_grams, search_text FROM posts ORDER BY id',
        ),
      );
      for (const [i, description] of descriptions.entries()) {
        const row = rows[i]!;
        expect(row.id).toBe(`m${i}`);
        expect([...row.search_grams].sort()).toEqual(searchGrams(description).sort());
        // The words may differ (a word inside another is left out); what they find may not.
        for (const keyword of deriveKeywords(description)) expect(row.search_text.includes(keyword)).toBe(true);
        for (const word of row.search_text === '' ? [] : row.search_text.split(' ')) {
          expect(deriveKeywords(description)).toContain(word);
        }
      }
      const columns = await database.rawTransaction((tx) =>
        tx.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'posts' AND column_name = 'keywords'`,
        ),
      );
      expect(columns).toEqual([]);
    } finally {
      await database.close();
      await drop();
    }
  });
});
