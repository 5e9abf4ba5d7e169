import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStatements, unprepareStatements } from '../../src/server/db/postgres-prepared.js';
import { noPostgres, TEST_DATABASE_URL } from '../helpers/services.js';

/**
 * Statements prepared once per PostgreSQL connection (src/server/db/postgres-prepared.ts): the
 * same answers, each text parsed once per connection, a bounded number kept, and a statement a
 * migration or a DEALLOCATE made stale run again unprepared. One connection, so every statement
 * meets the same one; a table of its own, dropped afterwards.
 */
describe.skipIf(noPostgres)('statements prepared once per PostgreSQL connection', () => {
  const table = `prepared_${randomBytes(4).toString('hex')}`;
  let pool: pg.Pool;
  let plain: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    prepareStatements(pool);
    plain = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    await plain.query(`CREATE TABLE ${table} (id int PRIMARY KEY, body text)`);
    await plain.query(`INSERT INTO ${table} VALUES (1, 'one'), (2, NULL)`);
  });
  afterAll(async () => {
    await plain?.query(`DROP TABLE IF EXISTS ${table}`);
    await Promise.all([pool?.end(), plain?.end()]);
  });

  /** Asked as a plain string, which is never prepared. */
  const preparedTexts = async (client: pg.Pool | pg.PoolClient) =>
    (await client.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'dormboard_%'`)).rows.map(
      (row) => row.statement,
    );

  it('answers as an unprepared statement does, and parses each text once on a connection', async () => {
    const text = `SELECT id, body FROM ${table} WHERE id >= $1 ORDER BY id`;
    for (let i = 0; i < 3; i++) {
      const prepared = await pool.query({ text, values: [1], rowMode: 'array' });
      const direct = await plain.query({ text, values: [1], rowMode: 'array' });
      expect(prepared.rows).toEqual(direct.rows);
      expect(prepared.rows).toEqual([
        [1, 'one'],
        [2, null],
      ]);
    }
    expect((await preparedTexts(pool)).filter((statement) => statement === text)).toHaveLength(1);
    expect(await preparedTexts(plain)).toEqual([]);
  });

  it('leaves strings, named statements and transactions as they were', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query({ text: `UPDATE ${table} SET body = $1 WHERE id = $2`, values: ['uno', 1] });
      await client.query('ROLLBACK');
      await client.query({ name: 'mine', text: `SELECT body FROM ${table} WHERE id = $1`, values: [1] });
      const texts = await preparedTexts(client);
      expect(texts).toContain(`UPDATE ${table} SET body = $1 WHERE id = $2`);
      expect(texts).not.toContain('BEGIN');
      expect((await client.query(`SELECT body FROM ${table} WHERE id = 1`)).rows).toEqual([{ body: 'one' }]);
    } finally {
      client.release();
    }
  });

  it('keeps at most 200 statements on a connection; past them, new texts run unprepared', async () => {
    for (let i = 0; i < 230; i++) {
      const { rows } = await pool.query({ text: `SELECT ${i} AS n, body FROM ${table} WHERE id = $1`, values: [1] });
      expect(rows).toEqual([{ n: i, body: 'one' }]);
    }
    expect((await preparedTexts(pool)).length).toBe(200);
  });

  it('runs again unprepared what a migration or a DEALLOCATE made stale', async () => {
    const wide = `${table}_wide`;
    await plain.query(`CREATE TABLE ${wide} (a int)`);
    try {
      await plain.query(`INSERT INTO ${wide} VALUES (1)`);
      // A fresh pool: the previous test filled the first connection's 200.
      const fresh = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
      prepareStatements(fresh);
      try {
        const text = `SELECT * FROM ${wide} WHERE a = $1`;
        expect((await fresh.query({ text, values: [1] })).rows).toEqual([{ a: 1 }]);
        await plain.query(`ALTER TABLE ${wide} ADD COLUMN b text`);
        expect((await fresh.query({ text, values: [1] })).rows).toEqual([{ a: 1, b: null }]);
        expect((await fresh.query({ text, values: [1] })).rows).toEqual([{ a: 1, b: null }]);

        const other = `SELECT a FROM ${wide} WHERE a = $1`;
        expect((await fresh.query({ text: other, values: [1] })).rows).toEqual([{ a: 1 }]);
        await fresh.query('DEALLOCATE ALL');
        expect((await fresh.query({ text: other, values: [1] })).rows).toEqual([{ a: 1 }]);
      } finally {
        await fresh.end();
      }
    } finally {
      await plain.query(`DROP TABLE IF EXISTS ${wide}`);
    }
  });
  it('prepares nothing when turned off, not even statements named in the code', async () => {
    const off = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
    unprepareStatements(off);
    try {
      const text = `SELECT body FROM ${table} WHERE id = $1`;
      expect((await off.query({ text, values: [1] })).rows).toEqual([{ body: 'one' }]);
      expect((await off.query({ name: 'named_in_code', text, values: [1] })).rows).toEqual([{ body: 'one' }]);
      expect(await preparedTexts(off)).toEqual([]);
      expect((await off.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements')).rows).toEqual([{ n: '0' }]);
    } finally {
      await off.end();
    }
  });
});
