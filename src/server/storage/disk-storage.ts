import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOf, isSafeKey, type Storage, type StoredFile } from './storage.js';

const NO_SUCH_FILE = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG']);

/** Files under one directory (DATA_DIR/media) for a single machine. */
export class DiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    if (contentTypeOf(key) !== contentType) throw new Error(`${key} is not ${contentType}`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredFile | undefined> {
    if (!isSafeKey(key)) return undefined;
    const contentType = contentTypeOf(key);
    if (!contentType) return undefined;
    try {
      return { body: await fs.readFile(this.pathOf(key)), contentType };
    } catch (error) {
      // A key from a URL can name a path no file can have: too long, or through a file.
      if (NO_SUCH_FILE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    const folder = path.dirname(file);
    await fs.rm(file, { force: true });
    // A put cut short by a crash leaves its temporary file beside the key; it goes with the key
    // (so the orphan sweep, which deletes keys, takes it too).
    const temporaryPrefix = `${path.basename(file)}.`;
    const names = await fs.readdir(folder).catch(() => []);
    for (const name of names) {
      if (name.startsWith(temporaryPrefix) && name.endsWith('.tmp')) await fs.rm(path.join(folder, name), { force: true });
    }
    // Tidy the now-empty folder of a deleted post; ignore folders that still hold files.
    await fs.rmdir(folder).catch(() => undefined);
  }
}
