/**
 * npm run restore -- BACKUP_DIR
 * Puts a backup made by `npm run backup` into DATA_DIR, which must not hold a database yet.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { restoreBackup } from '../backup/backup.js';
import { loadConfig } from '../config.js';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: npm run restore -- BACKUP_DIR   (into DATA_DIR, default ./data)');
  process.exit(2);
}
const config = loadConfig();
await restoreBackup(path.resolve(positionals[0]!), config.dataDir);
console.log(`restored ${positionals[0]} into ${config.dataDir}`);
