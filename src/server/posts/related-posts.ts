import type { AppDb } from '../db/database.js';
import { NewestPostTimes } from './newest-post-times.js';
import * as queries from './post.queries.js';

export interface RelatedPostsOptions {
  /** Sizes of the windows of newest posts looked at before the whole table, smallest first. */
  windows: number[];
  /** How long a window's start time is reused. Any start time gives the exact answer, so a stale one only moves the window. */
  cutoffTtlMs: number;
  /** The window starts, shared with the process's other users of them (else its own, kept cutoffTtlMs). */
  newestPostTimes?: NewestPostTimes;
}

const DEFAULTS: RelatedPostsOptions = { windows: [2_000, 20_000], cutoffTtlMs: 60_000 };

/**
 * Related posts, newest first, looked for among the newest posts first: when the window of the
 * n newest posts holds `limit` matches, they are the answer, because every post outside it is
 * older than every post inside it. Otherwise a larger window, and finally the whole table.
 *
 * Most posts begin with common words, whose pairs ("th", "in") most posts share: in the first
 * window the planner walks the feed index and stops at the limit (under 1 ms at 1M posts on
 * PostgreSQL, 2 ms at 100k on PGlite). When that window has fewer matches than the limit, they
 * are few, and the larger windows and the whole table read every match through the GIN indexes
 * (sparseRelatedPosts) whatever the planner guesses: left to choose, it walks the whole table
 * for pairs its statistics don't know (see queries.relatedPosts: 3.9 s, against 2 ms here).
 * Matches in a few percent of posts cost the most here, two GIN lookups of all of them (first
 * window, then second): up to ~20 ms at 1M posts, where one walk of the feed index took ~10.
 */
export class RelatedPosts {
  private readonly options: RelatedPostsOptions;
  private readonly cutoffs: NewestPostTimes;

  constructor(
    private readonly db: AppDb,
    options: Partial<RelatedPostsOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.cutoffs = this.options.newestPostTimes ?? new NewestPostTimes(db, undefined, this.options.cutoffTtlMs);
  }

  async cards(to: queries.RelatedTo, limit: number): Promise<queries.CardRow[]> {
    for (const [index, size] of this.options.windows.entries()) {
      // Undefined when there are fewer posts than the window: then the whole table is no larger.
      const since = await this.cutoffs.at(size);
      // Past the first window, matches are few (it had fewer than `limit`): read them all.
      const query = index === 0 ? queries.relatedPosts : queries.sparseRelatedPosts;
      const found = await query(this.db, to, limit, since);
      if (!since || found.length === limit) return found;
    }
    return queries.sparseRelatedPosts(this.db, to, limit);
  }
}
