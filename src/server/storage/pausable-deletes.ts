import type { Storage } from './storage.js';

/**
 * A storage whose deletions can be held back for a while. A backup holds them while it copies
 * the database and then the files: every file the copied database refers to still exists when
 * the files are copied, so the two halves of the backup match.
 */
export class PausableDeletes implements Storage {
  private holds = 0;
  private queued: string[] = [];

  constructor(private readonly inner: Storage) {}

  put(key: string, body: Buffer, contentType: string) {
    return this.inner.put(key, body, contentType);
  }

  get(key: string) {
    return this.inner.get(key);
  }

  async delete(key: string): Promise<void> {
    if (this.holds > 0) {
      this.queued.push(key);
      return;
    }
    await this.inner.delete(key);
  }

  /** Holds deletions until the returned function is called; then runs the held ones. */
  pause(): () => Promise<void> {
    this.holds += 1;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds > 0) return;
      const keys = this.queued;
      this.queued = [];
      await Promise.allSettled(keys.map((key) => this.inner.delete(key)));
    };
  }
}
