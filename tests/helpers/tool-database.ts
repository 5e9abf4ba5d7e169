import { openDatabase, type Database } from '../../src/server/db/database.js';
import { tempDir } from './processes.js';
import { createEmptyDatabase, TEST_DATABASE_URL } from './services.js';

/**
 * An empty database for a command-line tool's test, and the environment that points the tool at
 * it: a new PostgreSQL database when TEST_DATABASE_URL is set (drop() removes it), else the
 * embedded one in a DATA_DIR of its own, which the test closes while the tool holds it.
 */
export async function toolDatabase(
  name: string,
): Promise<{ database: Database; dataDir: string; env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = tempDir(name);
  if (TEST_DATABASE_URL) {
    const fresh = await createEmptyDatabase();
    return {
      database: await openDatabase({ databaseUrl: fresh.url }),
      dataDir,
      env: { DATABASE_URL: fresh.url, DATA_DIR: dataDir },
      drop: fresh.drop,
    };
  }
  return { database: await openDatabase({ dataDir }), dataDir, env: { DATA_DIR: dataDir }, drop: async () => undefined };
}
