import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isSafeKey, type Storage, type StoredFile } from './storage.js';

/** Content types by extension: the server chose the extension when it encoded the file. */
const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.png': 'image/png',
};

/** Files under one directory (DATA_DIR/media) for a single machine. */
export class DiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    if (CONTENT_TYPES[path.extname(key)] !== contentType) throw new Error(`${key} is not ${contentType}`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temporary, body);
    await fs.rename(temporary, file);
  }

  async get(key: string): Promise<StoredFile | undefined> {
    if (!isSafeKey(key)) return undefined;
    const contentType = CONTENT_TYPES[path.extname(key)];
    if (!contentType) return undefined;
    try {
      return { body: await fs.readFile(this.pathOf(key)), contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
    // Tidy the now-empty folder of a deleted post; ignore folders that still hold files.
    await fs.rmdir(path.dirname(this.pathOf(key))).catch(() => undefined);
  }
}
