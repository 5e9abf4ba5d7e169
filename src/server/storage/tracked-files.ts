import type { FastifyBaseLogger } from 'fastify';
import type { ChangeNotices, Note } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { deleteAll, putAll, type FileToStore } from './batch.js';
import { addPendingFiles, clearPendingFiles, pendingFilesOlderThan } from './pending-file.queries.js';
import type { Storage } from './storage.js';

const SWEEP_BATCH = 500;

/** What a transaction run by TrackedFiles returns. */
export interface Owned<T> {
  result: T;
  /** Keys of files the transaction stopped pointing at: deleted once it has committed. */
  released?: string[];
}

/**
 * Files and the rows that own them (a post's image, a user's icon), kept in step across crashes.
 *
 * A file must exist before the row that points at it is committed, or a reader could see a post
 * without its image; and it must outlive the row that pointed at it. So for a moment every file
 * exists with no committed row owning it, and a crash in that moment (SIGKILL, OOM, power) would
 * leave it in storage for good. Such keys are therefore written down in `pending_files`, in the
 * same database as the rows, *before* that moment begins:
 *
 * - storing: record the keys (committed) -> write the files -> insert the owner row and forget
 *   the keys in one transaction;
 * - removing: delete the owner row and record its keys in one transaction -> delete the files ->
 *   forget the keys.
 *
 * Whatever a crash interrupts, a recorded key either has no row or is about to be forgotten
 * together with its row's commit, and sweep() deletes the files of keys recorded long enough
 * ago. This works the same on disk and S3 and never has to list the storage.
 */
export class TrackedFiles {
  constructor(
    private readonly db: AppDb,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    /** Runs the owners' transactions, with the notices of what they change. */
    private readonly notices: ChangeNotices,
  ) {}

  /**
   * Writes the files (all or none), then runs `work` in a transaction that also forgets their
   * keys and records the keys `work` released (and the changes it notes, which every cache hears
   * of before the released files are deleted). On any failure the new files are removed again.
   */
  async store<T>(files: FileToStore[], work: (tx: AppDb, note: Note) => Promise<Owned<T>>): Promise<T> {
    const keys = files.map((file) => file.key);
    await addPendingFiles(this.db, keys);
    try {
      await putAll(this.storage, files);
    } catch (error) {
      await this.remove(keys);
      throw error;
    }
    let outcome: Owned<T>;
    try {
      outcome = await this.notices.transaction(async (tx, note) => {
        const owned = await work(tx, note);
        await clearPendingFiles(tx, keys);
        await addPendingFiles(tx, owned.released ?? []);
        return owned;
      });
    } catch (error) {
      // WARNING: when the connection broke, the COMMIT may have succeeded (and the keys been
      // forgotten with it). Deleting the files now could leave a committed row without them,
      // so they stay recorded instead: the sweep deletes them only if the row never came.
      if (!isDatabaseUnavailable(error)) await this.remove(keys);
      throw error;
    }
    await this.remove(outcome.released ?? []);
    return outcome.result;
  }

  /** Runs `work` (which deletes the rows that owned some files) and then deletes those files. */
  release<T>(work: (tx: AppDb, note: Note) => Promise<Owned<T>>): Promise<T> {
    return this.store([], work);
  }

  /** Deletes recorded files; the ones storage can't delete now stay recorded for the sweep. */
  private async remove(keys: string[]): Promise<void> {
    const failed = new Set(await deleteAll(this.storage, keys));
    if (failed.size > 0) this.log.warn({ keys: [...failed] }, 'could not delete some files; the sweep will retry');
    try {
      await clearPendingFiles(
        this.db,
        keys.filter((key) => !failed.has(key)),
      );
    } catch (error) {
      // The files are gone; the sweep will find nothing to delete for these keys and forget them.
      this.log.warn({ err: error }, 'could not forget deleted files');
    }
  }

  /**
   * Deletes the files of keys recorded at least `ageMs` ago and forgets them. The age must exceed
   * the longest upload in flight in any process sharing the database; 0 only where this process
   * is the database's sole user and nothing is in flight (the embedded database at start-up).
   */
  async sweep(ageMs: number): Promise<number> {
    let swept = 0;
    for (;;) {
      const keys = await pendingFilesOlderThan(this.db, ageMs, SWEEP_BATCH);
      if (keys.length === 0) return swept;
      const failed = await deleteAll(this.storage, keys);
      const deleted = keys.filter((key) => !failed.includes(key));
      await clearPendingFiles(this.db, deleted);
      swept += deleted.length;
      if (failed.length > 0) {
        this.log.warn({ keys: failed }, 'could not delete some orphaned files; the next sweep will retry');
        return swept;
      }
    }
  }
}
