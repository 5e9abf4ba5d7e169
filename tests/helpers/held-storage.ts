import type { Storage, StoredFile } from '../../src/server/storage/storage.js';

/**
 * The real storage, with reads the test can hold: an export that has started waits inside its
 * first photo read until release(), so a test can fill the export slots or walk away mid-ZIP.
 */
export class HeldStorage implements Storage {
  reads = 0;
  /** Reads of keys containing this fail, as a storage outage would. */
  failing: string | undefined;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  private waiting: Array<() => void> = [];

  constructor(private readonly inner: Storage) {}

  hold() {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release() {
    this.open?.();
    this.gate = undefined;
  }

  /** Resolves once some read is waiting at the gate. */
  reading(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  put(key: string, body: Buffer, contentType: string) {
    return this.inner.put(key, body, contentType);
  }

  async get(key: string): Promise<StoredFile | undefined> {
    this.reads += 1;
    for (const resolve of this.waiting.splice(0)) resolve();
    if (this.gate) await this.gate;
    if (this.failing && key.includes(this.failing)) throw new Error('storage is down');
    return this.inner.get(key);
  }

  delete(key: string) {
    return this.inner.delete(key);
  }
}
