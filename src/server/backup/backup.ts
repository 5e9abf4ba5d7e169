import fs from 'node:fs/promises';
import path from 'node:path';
import { openDatabase, pgliteDir, type Database } from '../db/database.js';
import type { PausableDeletes } from '../storage/pausable-deletes.js';

export const DUMP_FILE = 'pglite.tar.gz';
export const MEDIA_DIR = 'media';

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** A backup folder name that sorts by time: 2026-11-22T01-45-00-000Z. */
export function defaultBackupDir(dataDir: string): string {
  return path.join(dataDir, 'backups', new Date().toISOString().replace(/[:.]/g, '-'));
}

/**
 * Copies the embedded database and the media files into outDir while the app keeps serving.
 * The database dump is one consistent snapshot; file deletions are held back until the files
 * are copied, so every image the snapshot refers to is in the backup.
 */
export async function createBackup(options: {
  database: Database;
  storage?: PausableDeletes;
  mediaDir: string;
  outDir: string;
}): Promise<{ outDir: string; databaseBytes: number; mediaFiles: number }> {
  if (!options.database.dump) throw new Error('backups of PostgreSQL are made with pg_dump (see docs/deploy.md)');
  if (await exists(options.outDir)) throw new Error(`${options.outDir} already exists`);
  const release = options.storage?.pause();
  try {
    const dump = Buffer.from(await (await options.database.dump()).arrayBuffer());
    await fs.mkdir(options.outDir, { recursive: true });
    await fs.writeFile(path.join(options.outDir, DUMP_FILE), dump);
    let mediaFiles = 0;
    if (await exists(options.mediaDir)) {
      await fs.cp(options.mediaDir, path.join(options.outDir, MEDIA_DIR), {
        recursive: true,
        // Half-written temporary files are never part of the data.
        filter: (source) => !source.endsWith('.tmp'),
      });
      mediaFiles = (await fs.readdir(path.join(options.outDir, MEDIA_DIR), { recursive: true, withFileTypes: true })).filter((entry) =>
        entry.isFile(),
      ).length;
    }
    return { outDir: options.outDir, databaseBytes: dump.length, mediaFiles };
  } finally {
    await release?.();
  }
}

/** Puts a backup into an empty data directory (the app must not be running there). */
export async function restoreBackup(backupDir: string, dataDir: string): Promise<void> {
  if (await exists(pgliteDir(dataDir))) throw new Error(`${pgliteDir(dataDir)} already exists: restore into an empty DATA_DIR`);
  const dump = await fs.readFile(path.join(backupDir, DUMP_FILE));
  const database = await openDatabase({ dataDir, loadDump: new Blob([dump]) });
  await database.close();
  if (await exists(path.join(backupDir, MEDIA_DIR))) {
    await fs.cp(path.join(backupDir, MEDIA_DIR), path.join(dataDir, MEDIA_DIR), { recursive: true });
  }
}
