import path from 'node:path';
import type { Config } from '../config.js';
import { DiskStorage } from './disk-storage.js';
import type { Storage } from './storage.js';

/** Disk under DATA_DIR/media on one machine. */
export function createStorage(config: Config): Storage {
  return new DiskStorage(path.join(config.dataDir, 'media'));
}
