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
          tx.query("INSERT INTO users (id, username, email, password_hash) VALUES ($1, $2, $3, 'x')", [
            email,
            username,
            email,
          ]),
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
});
