/**
 * npm run migrate-data -- --to postgres://... [--media-to-dir DIR | --media-to-s3]
 * Copies users, sessions, posts, follows and media from the embedded setup in DATA_DIR to
 * PostgreSQL and (optionally) to another storage: a directory, or the S3 bucket described by
 * the S3_* variables. Stop the app first; the target database must be empty.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copyData } from '../backup/copy-data.js';
import { readServerFile } from '../backup/server-file.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createStorage } from '../storage/create-storage.js';
import { DiskStorage } from '../storage/disk-storage.js';
import type { Storage } from '../storage/storage.js';

const { values } = parseArgs({
  options: { to: { type: 'string' }, 'media-to-dir': { type: 'string' }, 'media-to-s3': { type: 'boolean' } },
});
if (!values.to) {
  console.error('usage: npm run migrate-data -- --to postgres://... [--media-to-dir DIR | --media-to-s3]');
  process.exit(2);
}
const config = loadConfig({ ...process.env, DATABASE_URL: '' });
if (await readServerFile(config.dataDir)) {
  console.error(`The app is running on ${config.dataDir}: stop it first.`);
  process.exit(1);
}

let targetStorage: Storage | undefined;
if (values['media-to-dir']) targetStorage = new DiskStorage(path.resolve(values['media-to-dir']));
else if (values['media-to-s3']) {
  const s3 = loadConfig();
  if (!s3.s3) {
    console.error('--media-to-s3 needs S3_BUCKET (and S3_ENDPOINT, S3_REGION, credentials) in the environment.');
    process.exit(2);
  }
  targetStorage = createStorage(s3);
}

const source = await openDatabase({ dataDir: config.dataDir });
const target = await openDatabase({ databaseUrl: values.to });
try {
  const report = await copyData({ source, target, sourceMediaDir: path.join(config.dataDir, 'media'), targetStorage });
  console.log(JSON.stringify(report));
} finally {
  await source.close();
  await target.close();
}
