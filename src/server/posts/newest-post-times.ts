import { ReadCache, type Region } from '../cache/read-cache.js';
import type { AppDb } from '../db/database.js';
import { nthNewestPostTime } from './post.queries.js';

/**
 * Where the windows of the newest posts start: the creation time of the nth newest post, by n,
 * kept for a while (a region of the read cache) and shared by everything that looks among the
 * newest posts first (related posts, post search; one instance per process). Any start time
 * gives exact answers, so a stale one only moves a window: no change makes one stale.
 */
export class NewestPostTimes {
  private readonly times: Region<string | undefined>;

  /** `cache`: the process's read cache; by default one of its own (a search or related posts made alone). */
  constructor(
    private readonly db: AppDb,
    cache?: ReadCache,
    ttlMs = 60_000,
  ) {
    this.times = (cache ?? ReadCache.small(ttlMs)).region('newest post times', { ttlMs });
  }

  /** Undefined when there are fewer than n posts. `db` runs the query when it is not kept (a search's connection, say). */
  at(n: number, db: AppDb = this.db): Promise<string | undefined> {
    return this.times.get(String(n), () => nthNewestPostTime(db, n));
  }
}
