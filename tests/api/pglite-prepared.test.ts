import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PreparedPGlite } from '../../src/server/db/pglite-prepared.js';
import { arrayLiteral, textArray } from '../../src/server/db/text-array.js';

/** Opening PGlite boots postgres in WebAssembly: seconds on a loaded machine. */
const BOOT = { timeout: 120_000 };

/**
 * The embedded database with every statement prepared once (src/server/db/pglite-prepared.ts):
 * the same answers and errors as PGlite's query(), each SQL text parsed once, a bounded number
 * kept, and statements that a table change or a DEALLOCATE made stale prepared again.
 */
describe('statements prepared once on the embedded database', BOOT, () => {
  let plain: PGlite;
  let db: PreparedPGlite;

  beforeAll(async () => {
    plain = new PGlite();
    db = new PreparedPGlite(plain);
    await db.exec(`CREATE TABLE notes (id int PRIMARY KEY, body text, done boolean, at timestamptz, tags text[], meta jsonb)`);
    await db.exec(
      `INSERT INTO notes VALUES (1, 'one', false, '2026-11-26T10:00:00Z', '{a,b}', '{"k": 1}'), (2, NULL, true, NULL, '{}', NULL)`,
    );
  }, BOOT.timeout);
  afterAll(() => db.close());

  /** Asked through the wrapper: the statements it closes go in the same trip, before this one runs. */
  const preparedTexts = async () =>
    (await db.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'dormboard_%'`)).rows.map(
      (row) => row.statement,
    );

  it('answers as query() does, in both row modes, with strings, numbers, booleans and nulls as parameters', async () => {
    const sql = 'SELECT id, body, done, at, tags, meta FROM notes WHERE id >= $1 AND (done = $2 OR body IS DISTINCT FROM $3) ORDER BY id';
    for (const rowMode of ['object', 'array'] as const) {
      const params = [1, true, null];
      const prepared = await db.query(sql, params, { rowMode });
      const direct = await plain.query(sql, params, { rowMode });
      expect(prepared.rows).toEqual(direct.rows);
      expect(prepared.fields).toEqual(direct.fields);
      expect(prepared.rows).toHaveLength(2);
    }
    expect((await db.query<{ n: string }>('SELECT $1::bigint + 1 AS n', [2n ** 40n])).rows[0]!.n).toBe(2 ** 40 + 1);
    expect((await db.query<{ t: string }>('SELECT $1::text AS t', [true])).rows[0]!.t).toBe('true');
  });

  it('prepares statements with flat arrays as parameters (as the search and related posts send them), answering as query() does', async () => {
    const cases: Array<[string, unknown[]]> = [
      ['SELECT id FROM notes WHERE tags @> $1 ORDER BY id', [['a']]],
      ['SELECT id FROM notes WHERE tags && $1 ORDER BY id', [['b', 'x"y', 'back\\slash', null]]],
      ['SELECT id FROM notes WHERE id = ANY($1) ORDER BY id', [[2, 1]]],
      ['SELECT $1::text[] AS a, $2::int[] AS b', [['{', '}', ',', ' ', 'NULL'], []]],
    ];
    for (const [sql, params] of cases) expect((await db.query(sql, params)).rows).toEqual((await plain.query(sql, params)).rows);
    expect(await preparedTexts()).toEqual(expect.arrayContaining(cases.map(([sql]) => sql)));
  });

  it('keeps the parsers it is given (drizzle keeps timestamps as text)', async () => {
    const keep = { 1184: (value: string) => value };
    const { rows } = await db.query<{ at: unknown }>('SELECT at FROM notes WHERE id = $1', [1], { parsers: keep });
    expect(rows[0]!.at).toBe('2026-11-26 10:00:00+00');
  });

  it('sends any other parameter as query() does (a Date, an object)', async () => {
    const { rows } = await db.query<{ id: number }>('SELECT id FROM notes WHERE at = $1 OR meta = $2', [
      new Date('2026-11-26T10:00:00Z'),
      { k: 9 },
    ]);
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('parses each SQL text once, however often it runs', async () => {
    const sql = 'SELECT count(*)::int AS n FROM notes WHERE id <> $1';
    for (let i = 0; i < 7; i++) expect((await db.query<{ n: number }>(sql, [i])).rows[0]!.n).toBe(i === 1 || i === 2 ? 1 : 2);
    expect((await preparedTexts()).filter((text) => text === sql)).toHaveLength(1);
  });

  it('keeps at most 300 statements: the least used are closed', async () => {
    for (let i = 0; i < 320; i++) await db.query(`SELECT ${i} AS n, id FROM notes WHERE id = $1`, [1]);
    // The first ask is a new statement too: it is kept, and what it pushed out is closed by the second.
    await preparedTexts();
    const texts = await preparedTexts();
    expect(texts.length).toBeLessThanOrEqual(300);
    expect(texts).toContain('SELECT 319 AS n, id FROM notes WHERE id = $1');
    expect(texts).not.toContain('SELECT 0 AS n, id FROM notes WHERE id = $1');
  });

  it('fails as query() does, and the same text runs once it can', async () => {
    const error = await db.query('SELECT nothing FROM notes').catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: '42703', query: 'SELECT nothing FROM notes' });
    await db.exec('ALTER TABLE notes ADD COLUMN nothing int');
    expect((await db.query('SELECT nothing FROM notes WHERE id = 1')).rows).toEqual([{ nothing: null }]);
    const duplicate = await db.query('INSERT INTO notes (id) VALUES ($1)', [1]).catch((caught: Error) => caught);
    expect(duplicate).toMatchObject({ code: '23505' });
    expect((await db.query('INSERT INTO notes (id) VALUES ($1)', [3])).affectedRows).toBe(1);
  });

  it('prepares again what a table change made stale, and what DEALLOCATE dropped', async () => {
    await db.exec('CREATE TABLE wide (a int)');
    await db.exec('INSERT INTO wide VALUES (1)');
    const sql = 'SELECT * FROM wide WHERE a = $1';
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1 }]);
    await db.exec('ALTER TABLE wide ADD COLUMN b text');
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1, b: null }]);
    await db.exec('DEALLOCATE ALL');
    expect((await db.query(sql, [1])).rows).toEqual([{ a: 1, b: null }]);
  });

  it('runs prepared inside a transaction, which others wait for, and rolls back as one', async () => {
    let outside: Promise<number> | undefined;
    await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [10, 'ten']);
        outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes WHERE id = $1', [10]).then((r) => r.rows[0]!.n);
        expect((await tx.query<{ body: string }>('SELECT body FROM notes WHERE id = $1', [10])).rows).toEqual([{ body: 'ten' }]);
        await tx.query('SELECT nothing_here FROM notes').catch(() => undefined);
        throw new Error('undo');
      })
      .catch((error: Error) => expect(error.message).toBe('undo'));
    expect(await outside).toBe(0);
    expect((await db.query('SELECT id FROM notes WHERE id = $1', [10])).rows).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [11, 'eleven']);
    });
    expect((await db.query('SELECT body FROM notes WHERE id = $1', [11])).rows).toEqual([{ body: 'eleven' }]);
  });
  it('reads answers as PGlite does: many rows over several chunks, multi-byte text, counts, notices, empty results', async () => {
    const many = 'SELECT g AS n, repeat($1, 50) AS text, g % 2 = 0 AS even, NULL::int AS nothing FROM generate_series(1, 5000) g';
    const word = 'zürich 🏠 寮 ';
    for (const rowMode of ['object', 'array'] as const) {
      const prepared = await db.query(many, [word], { rowMode });
      const direct = await plain.query(many, [word], { rowMode });
      expect(prepared.rows).toEqual(direct.rows);
      expect(prepared.fields).toEqual(direct.fields);
    }
    const update = 'UPDATE notes SET body = body WHERE id <= $1';
    expect(await db.query(update, [2])).toMatchObject({ affectedRows: 2, rows: [], fields: [] });
    const none = await db.query('SELECT id FROM notes WHERE id < $1', [0]);
    expect(none).toMatchObject({ rows: [], fields: [{ name: 'id', dataTypeID: 23 }], affectedRows: 0 });
    const notice = 'SELECT set_config($1, $2, false) AS value';
    expect((await db.query(notice, ['client_min_messages', 'notice'])).rows).toEqual([{ value: 'notice' }]);
    await db.exec(
      `CREATE OR REPLACE FUNCTION noisy(n int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'saw %', n; RETURN n + 1; END $$`,
    );
    expect((await db.query('SELECT noisy($1) AS n', [41])).rows).toEqual([{ n: 42 }]);
  });

  it("fails with the same error fields as PGlite's own", async () => {
    const insert = 'INSERT INTO notes (id, body) VALUES ($1, $2)';
    const fromPrepared = await db.query(insert, [1, 'again']).catch((caught: Error) => caught);
    const fromPlain = await plain.query(insert, [1, 'again']).catch((caught: Error) => caught);
    const fields = ['message', 'severity', 'code', 'detail', 'schema', 'table', 'constraint', 'routine'] as const;
    const pick = (error: unknown) => Object.fromEntries(fields.map((field) => [field, (error as Record<string, unknown>)[field]]));
    expect(pick(fromPrepared)).toEqual(pick(fromPlain));
    expect(fromPrepared).toBeInstanceOf(Error);
    expect(fromPrepared).toMatchObject({ code: '23505', constraint: 'notes_pkey' });
  });
  it('takes a text[] as one text parameter: any values, one statement text whatever their number (db/text-array.ts)', async () => {
    const values = ['plain', 'with "quotes"', 'back\\slash', 'comma, and {braces}', 'NULL', '', ' spaced '];
    const { rows } = await db.query<{ a: string[] }>('SELECT $1::text[] AS a', [arrayLiteral(values)]);
    expect(rows[0]!.a).toEqual(values);
    const dialect = new PgDialect();
    const texts = [['a'], ['a', 'b', 'c']].map((list) => dialect.sqlToQuery(sql`SELECT 1 WHERE 'x' <> all(${textArray(list)})`).sql);
    expect(texts[0]).toBe(texts[1]);
  });

  it('refuses after closing, as query() does', async () => {
    const other = new PreparedPGlite(new PGlite());
    expect((await other.query('SELECT $1::int AS n', [1])).rows).toEqual([{ n: 1 }]);
    await other.close();
    await expect(other.query('SELECT $1::int AS n', [1])).rejects.toThrow('PGlite is closed');
  });
});
