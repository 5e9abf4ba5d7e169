import type { Storage } from './storage.js';

export interface FileToStore {
  key: string;
  body: Buffer;
  contentType: string;
}

/**
 * Deletes at once: a post's or an icon's files all together, but a deleted account's thousands
 * in turns, so neither the disk nor the S3 client's sockets get thousands of requests at once.
 */
const DELETES_AT_ONCE = 32;

/** Removes every key; returns the keys it could not remove (missing files count as removed). */
export async function deleteAll(storage: Storage, keys: string[]): Promise<string[]> {
  const failed: string[] = [];
  for (let start = 0; start < keys.length; start += DELETES_AT_ONCE) {
    const batch = keys.slice(start, start + DELETES_AT_ONCE);
    const results = await Promise.allSettled(batch.map((key) => storage.delete(key)));
    failed.push(...batch.filter((_, index) => results[index]!.status === 'rejected'));
  }
  return failed;
}

/** Writes every file, or none: if one write fails, the others are removed and the error rethrown. */
export async function putAll(storage: Storage, files: FileToStore[]): Promise<void> {
  const results = await Promise.allSettled(files.map((file) => storage.put(file.key, file.body, file.contentType)));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await deleteAll(
      storage,
      files.map((file) => file.key),
    );
    throw failure.reason;
  }
}
