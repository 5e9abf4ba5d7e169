/**
 * npm run backup [-- --out DIR]
 * A consistent copy of the embedded database and the media files. While the app runs, the app
 * itself makes it (it owns the database); otherwise the database is opened here.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup, defaultBackupDir } from '../backup/backup.js';
import { callServer, readServerFile } from '../backup/server-file.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { UNSHARED_ROUTES } from '../http/unshared-routes.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const config = loadConfig();
if (config.databaseUrl) {
  console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump and your bucket with its own tools (docs/deploy.md).');
  process.exit(2);
}
const outDir = path.resolve(values.out ?? defaultBackupDir(config.dataDir));
const server = await readServerFile(config.dataDir);

let result: unknown;
if (server) {
  const response = await callServer(server, UNSHARED_ROUTES.backup.path, { out: outDir });
  if (!response.ok) {
    console.error(`The running app refused the backup: ${response.status} ${await response.text()}`);
    process.exit(1);
  }
  result = await response.json();
} else {
  const database = await openDatabase({ dataDir: config.dataDir });
  try {
    result = await createBackup({ database, mediaDir: path.join(config.dataDir, 'media'), outDir });
  } finally {
    await database.close();
  }
}
console.log(JSON.stringify(result));
