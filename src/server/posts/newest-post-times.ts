import { MemoCache } from '../cache/memo-cache.js';
import type { AppDb } from '../db/database.js';
import { nthNewestPostTime } from './post.queries.js';

/**
 * Where the windows of the newest posts start: the creation time of the nth newest post, by n,
 * kept for a while and shared by everything that looks among the newest posts first (related
 * posts, post search; one instance per process). Any start time gives exact answers, so a stale
 * one only moves a window.
 */
export class NewestPostTimes {
  private readonly times: MemoCache<string | undefined>;

  constructor(
    private readonly db: AppDb,
    ttlMs = 60_000,
  ) {
    this.times = new MemoCache(ttlMs);
  }

  /** Undefined when there are fewer than n posts. `db` runs the query when it is not kept (a search's connection, say). */
  at(n: number, db: AppDb = this.db): Promise<string | undefined> {
    return this.times.get(String(n), () => nthNewestPostTime(db, n));
  }
}
