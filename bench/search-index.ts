/**
 * npx tsx bench/search-index.ts [--db pglite,postgres] [--typical 5000] [--worst 100]
 *
 * Compares ways of indexing post descriptions for substring search, on both databases:
 *
 * - keywords:  every substring of 2+ characters of each word, GIN on text[] (the spec's keywords,
 *              stored as they were until migration 8);
 * - grams 2–3: every substring of 2–3 characters (GIN on text[]) plus the cleaned words as text,
 *              longer query words checked against it;
 * - grams 2:   every substring of 2 characters plus the words (posts store these and the triples
 *              since migration 8, the pairs alone when the triples would take too much);
 * - pg_trgm:   GIN (gin_trgm_ops) on the cleaned words, matched with LIKE '%word%'.
 *
 * For each: index bytes per typical post (seeded descriptions) and per worst-case post (one
 * 200-character word of distinct CJK characters, a different set per post so no key is shared),
 * measured as the growth of pg_relation_size over the posts inserted one by one; then the
 * median time to find (id, created_at) of every post matching one word, for words of 2 to 9
 * characters, over the typical posts. Prints a table; writes nothing.
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { cleanWords, deriveKeywords, searchText } from '../src/shared/keywords.js';
import { stream } from './seed-random.js';
import * as words from './seed-words.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite,postgres' },
    typical: { type: 'string', default: '5000' },
    worst: { type: 'string', default: '100' },
  },
});
const TYPICAL = Number(values.typical);
const WORST = Number(values.worst);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Sql {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

async function openPglite(): Promise<Sql> {
  const client = new PGlite({ extensions: { pg_trgm } });
  await client.waitReady;
  return {
    query: async <Row>(text: string, params?: unknown[]) => (await client.query<Row>(text, params)).rows,
    close: () => client.close(),
  };
}

async function openPostgres(): Promise<Sql> {
  const name = `dormboard_search_index_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as Row[],
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE ${name}`);
      await admin.end();
    },
  };
}

interface Variant {
  name: string;
  ddl: string;
  /** Columns and values of one post (besides id and created_at). */
  row(description: string): Record<string, string | string[]>;
  /** WHERE clause matching one query word ($1 = the word, $2 = its grams). */
  match: string;
}

const VARIANTS: Variant[] = [
  {
    name: 'keywords (before)',
    ddl: `CREATE TABLE v (id int PRIMARY KEY, created_at timestamptz NOT NULL, keywords text[] NOT NULL);
          CREATE INDEX v_idx ON v USING gin (keywords) WITH (fastupdate = off);`,
    row: (description) => ({ keywords: deriveKeywords(description) }),
    match: 'keywords @> ARRAY[$1::text]',
  },
  {
    name: 'grams 2–3 + text',
    ddl: `CREATE TABLE v (id int PRIMARY KEY, created_at timestamptz NOT NULL, grams text[] NOT NULL, words text NOT NULL);
          CREATE INDEX v_idx ON v USING gin (grams) WITH (fastupdate = off);`,
    row: (description) => ({ grams: gramsUpTo3(cleanWords(description)), words: searchText(description) }),
    match: `grams @> $2::text[] AND (char_length($1) <= 3 OR strpos(words, $1) > 0)`,
  },
  {
    name: 'grams 2 + text',
    ddl: `CREATE TABLE v (id int PRIMARY KEY, created_at timestamptz NOT NULL, grams text[] NOT NULL, words text NOT NULL);
          CREATE INDEX v_idx ON v USING gin (grams) WITH (fastupdate = off);`,
    row: (description) => ({ grams: cleanWords(description).flatMap(pairsOf), words: searchText(description) }),
    match: `grams @> $2::text[] AND (char_length($1) <= 2 OR strpos(words, $1) > 0)`,
  },
  {
    name: 'pg_trgm on text',
    ddl: `CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE TABLE v (id int PRIMARY KEY, created_at timestamptz NOT NULL, words text NOT NULL);
          CREATE INDEX v_idx ON v USING gin (words gin_trgm_ops) WITH (fastupdate = off);`,
    row: (description) => ({ words: cleanWords(description).join(' ') }),
    match: `words LIKE '%' || $1 || '%'`,
  },
];

function pairsOf(word: string): string[] {
  const chars = Array.from(word);
  return [...new Set(chars.slice(1).map((char, i) => chars[i]! + char))];
}

/** Every substring of 2 or 3 characters of the words. */
function gramsUpTo3(words: string[]): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const chars = Array.from(word);
    for (let i = 0; i + 2 <= chars.length; i++) {
      out.add(chars.slice(i, i + 2).join(''));
      if (i + 3 <= chars.length) out.add(chars.slice(i, i + 3).join(''));
    }
  }
  return [...out];
}

/** The grams 2–3 a post must hold to have the word: itself when that short, else its triples. */
function queryGramsUpTo3(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length <= 3) return [word];
  return [...new Set(chars.slice(2).map((_, i) => chars.slice(i, i + 3).join('')))];
}

/** A 200-character word of distinct CJK ideographs, shuffled; each n has its own 200 (n < 100): no key shared. */
function worstDescription(n: number): string {
  return Array.from({ length: 200 }, (_, i) => String.fromCodePoint(0x4e00 + n * 200 + ((i * 67) % 200))).join('');
}

async function insert(sql: Sql, variant: Variant, first: number, descriptions: string[]) {
  // One post per statement, as the app inserts them.
  for (let i = 0; i < descriptions.length; i++) {
    const row = variant.row(descriptions[i]!);
    const columns = Object.keys(row);
    await sql.query(
      `INSERT INTO v (id, created_at, ${columns.join(', ')}) VALUES ($1, now() - $2 * interval '1 minute', ${columns.map((_, c) => `$${c + 3}`).join(', ')})`,
      [first + i, first + i, ...Object.values(row)],
    );
  }
}

const indexBytes = async (sql: Sql) => Number((await sql.query<{ n: string }>(`SELECT pg_relation_size('v_idx') AS n`))[0]!.n);

const QUERY_WORDS = ['st', 'ro', 'nig', 'roo', 'room', 'study', 'library', 'tonight', 'breakfast'];

async function timeQuery(sql: Sql, variant: Variant, word: string): Promise<{ ms: number; rows: number }> {
  const text = `SELECT id, created_at FROM v WHERE ${variant.match}`;
  const params = variant.name.startsWith('grams 2 ')
    ? [word, pairsOf(word)]
    : variant.name.startsWith('grams')
      ? [word, queryGramsUpTo3(word)]
      : [word];
  const runs: number[] = [];
  let rows = 0;
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    rows = (await sql.query(text, params)).length;
    runs.push(performance.now() - started);
  }
  return { ms: runs.sort((a, b) => a - b)[4]!, rows };
}

const random = stream(1, 'search-index');
const typical = Array.from({ length: TYPICAL }, () => words.description(random, 200));
const worst = Array.from({ length: WORST }, (_, n) => worstDescription(n));

for (const db of values.db.split(',')) {
  for (const variant of VARIANTS) {
    const sql = db === 'pglite' ? await openPglite() : await openPostgres();
    try {
      for (const statement of variant.ddl
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean))
        await sql.query(statement);
      const empty = await indexBytes(sql);
      await insert(sql, variant, 0, typical);
      const afterTypical = await indexBytes(sql);
      await sql.query('VACUUM ANALYZE v');
      const timings = [];
      for (const word of QUERY_WORDS) timings.push({ word, ...(await timeQuery(sql, variant, word)) });
      await insert(sql, variant, TYPICAL, worst);
      const afterWorst = await indexBytes(sql);
      const perTypical = (afterTypical - empty) / TYPICAL;
      const perWorst = (afterWorst - afterTypical) / WORST;
      console.log(
        `| ${db} | ${variant.name} | ${Math.round(perTypical)} | ${Math.round(perWorst)} | ${timings.map((t) => `${t.word} ${t.ms.toFixed(1)} (${t.rows})`).join(', ')} |`,
      );
    } finally {
      await sql.close();
    }
  }
}
