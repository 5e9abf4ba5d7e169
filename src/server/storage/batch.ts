import type { Storage } from './storage.js';

export interface FileToStore {
  key: string;
  body: Buffer;
  contentType: string;
}

/** Removes every key; returns the keys it could not remove (missing files count as removed). */
export async function deleteAll(storage: Storage, keys: string[]): Promise<string[]> {
  const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
  return keys.filter((_, index) => results[index]!.status === 'rejected');
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
