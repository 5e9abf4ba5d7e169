import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import { createEmptyDatabase, noPostgres } from '../helpers/services.js';

/**
 * App processes that start together all run migrate() against one PostgreSQL database: each
 * migration must still run exactly once, and every process must come up.
 */

/** Every table the migrations create, read from their SQL. */
const TABLES = [
  ...new Set(MIGRATIONS.flatMap((m) => [...m.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)/gi)].map((match) => match[1]!))),
].sort();
const VERSIONS = MIGRATIONS.map((m) => m.version);

describe.skipIf(noPostgres)('migrations from several processes at once (PostgreSQL)', () => {
  let fresh: Awaited<ReturnType<typeof createEmptyDatabase>>;
  const connections: Database[] = [];

  beforeAll(async () => {
    fresh = await createEmptyDatabase();
    // Four "processes": four separate pools on the same, empty database.
    for (let i = 0; i < 4; i++) connections.push(await openDatabase({ databaseUrl: fresh.url }));
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await fresh?.drop();
  });

  const query = <Row>(db: Database, sql: string) => db.rawTransaction((tx) => tx.query<Row>(sql));

  it('all resolve, each migration is applied by exactly one of them, and the schema is complete', async () => {
    expect(TABLES).toEqual(expect.arrayContaining(['follows', 'posts', 'sessions', 'users']));
    const applied = await Promise.all(connections.map((db) => migrate(db)));

    // Together they applied every version once: one did the work, the others found it done.
    expect(applied.flat().sort((a, b) => a - b)).toEqual(VERSIONS);
    expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);

    const rows = await query<{ version: number; times: string }>(
      connections[0]!,
      'SELECT version, count(*) AS times FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(VERSIONS);
    expect(rows.every((row) => Number(row.times) === 1)).toBe(true);

    const tables = await query<{ table_name: string }>(
      connections[3]!,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((row) => row.table_name)).toEqual([...TABLES, 'schema_migrations'].sort());
  });

  it('running them all again at once changes nothing', async () => {
    const applied = await Promise.all(connections.map((db) => migrate(db)));
    expect(applied).toEqual([[], [], [], []]);
    const [{ total }] = (await query<{ total: string }>(connections[1]!, 'SELECT count(*) AS total FROM schema_migrations')) as [
      { total: string },
    ];
    expect(Number(total)).toBe(VERSIONS.length);
  });

  it('every process can use the schema the others migrated', async () => {
    await Promise.all(
      connections.map((db, i) =>
        db.rawTransaction((tx) =>
          tx.query("INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $3, 'x')", [
            `concurrent${i}`,
            `concurrent${i}`,
            `concurrent${i}@example.com`,
          ]),
        ),
      ),
    );
    const users = await query<{ id: string }>(connections[2]!, "SELECT id FROM users WHERE id LIKE 'concurrent%' ORDER BY id");
    expect(users.map((row) => row.id)).toEqual(['concurrent0', 'concurrent1', 'concurrent2', 'concurrent3']);
  });
});
