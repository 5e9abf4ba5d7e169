import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/db/migrate.js';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import { createTestDatabase } from '../helpers/test-app.js';

describe('migrations', () => {
  it('are applied once: running them again changes nothing', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      // The test database is already migrated.
      expect(await migrate(database)).toEqual([]);
      const rows = await database.rawTransaction((tx) =>
        tx.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version'),
      );
      expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await database.close();
      await drop();
    }
  });

  it('versions are unique and ascending', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('the schema refuses what the rules refuse, whatever the code above it does', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const insert = (username: string, email: string) =>
        database.rawTransaction((tx) =>
          tx.query("INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $3, 'x')", [email, username, email]),
        );
      await expect(insert('Upper', 'u@example.com')).rejects.toThrow();
      await expect(insert('ab', 'ab@example.com')).rejects.toThrow();
      await expect(insert('okname', 'MiXeD@example.com')).rejects.toThrow();
      await insert('okname', 'ok@example.com');
      await expect(insert('okname', 'other@example.com')).rejects.toThrow();
    } finally {
      await database.close();
      await drop();
    }
  });

  it('0007 stores existing e-mails NFKC-normalized, except copies that would collide with a taken address', async () => {
    const { database, drop } = await createTestDatabase();
    try {
      const run = (text: string, params: unknown[] = []) =>
        database.rawTransaction((tx) => tx.query<{ username: string; email: string }>(text, params));
      const insert = (username: string, email: string, createdAt: string) =>
        run("INSERT INTO users (id, username, email, password_hash, created_at) VALUES ($1, $1, $2, 'x', $3)", [
          username,
          email,
          createdAt,
        ]);
      await insert('fullwidth', 'ｆｕｌｌ@example.com', '2026-01-01');
      await insert('plain', 'taken@example.com', '2026-01-02');
      await insert('copycat', 'ｔａｋｅｎ@example.com', '2026-01-03');
      await insert('first', 'ｔｗｉｎ@example.com', '2026-01-04');
      await insert('second', 'twｉn@example.com', '2026-01-05');
      const sql = MIGRATIONS.find((migration) => migration.name === 'normalized-emails')!.sql;
      await database.rawTransaction((tx) => tx.exec(sql));
      const rows = await run('SELECT username, email FROM users ORDER BY created_at');
      expect(rows).toEqual([
        { username: 'fullwidth', email: 'full@example.com' },
        { username: 'plain', email: 'taken@example.com' },
        { username: 'copycat', email: 'ｔａｋｅｎ@example.com' },
        { username: 'first', email: 'twin@example.com' },
        { username: 'second', email: 'twｉn@example.com' },
      ]);
    } finally {
      await database.close();
      await drop();
    }
  });
});
