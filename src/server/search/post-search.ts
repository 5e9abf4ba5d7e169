import { MemoCache } from '../cache/memo-cache.js';
import type { AppDb } from '../db/database.js';
import type { CardRow } from '../posts/post.queries.js';
import * as queries from './search.queries.js';

export interface PostSearchOptions {
  /** Sizes of the windows of newest posts tried before the whole table, smallest first. */
  windows: number[];
  /** How long a window's start time is reused. Any start time gives exact results, so a stale one only widens the window. */
  cutoffTtlMs: number;
}

const DEFAULTS: PostSearchOptions = { windows: [2_000, 20_000], cutoffTtlMs: 60_000 };

/**
 * Post search: posts whose keywords contain any query word, the most words matched first, then
 * newest. Common words match a fifth of all posts, and ranking every match costs a heap read
 * each (1.4 s for one word on PGlite with 100k posts), so the newest posts are ranked first and
 * the rest of the table is read only when it could still change the answer:
 *
 * - an older post never beats a newer one that matches as many words, so when the window
 *   yields a full page whose last post matches every word, the page is final;
 * - when that last post matches all words but one, only older posts matching every word can
 *   still get in, and one GIN lookup of all the words finds them;
 * - otherwise a larger window, and finally the whole table.
 */
export class PostSearch {
  private readonly options: PostSearchOptions;
  /** The creation time of the nth newest post, by n. */
  private readonly cutoffs: MemoCache<string | undefined>;

  constructor(
    private readonly db: AppDb,
    options: Partial<PostSearchOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.cutoffs = new MemoCache(this.options.cutoffTtlMs);
  }

  async cards(queryWords: string[], limit: number): Promise<CardRow[]> {
    // Keywords are 2 or more characters long, so a shorter word can match nothing.
    const words = queryWords.filter((word) => Array.from(word).length >= 2);
    if (words.length === 0) return [];
    for (const size of this.options.windows) {
      const since = await this.windowStart(size);
      // Fewer posts than the window: the whole table is as cheap.
      if (!since) break;
      const recent = await queries.rankedPosts(this.db, words, limit, { since });
      const settled = await this.settle(words, limit, recent, since);
      if (settled) return settled;
    }
    return queries.rankedPosts(this.db, words, limit);
  }

  /** The final page when the window's ranking decides it, else undefined. */
  private async settle(words: string[], limit: number, recent: queries.RankedCard[], since: string): Promise<CardRow[] | undefined> {
    if (recent.length < limit) return undefined;
    const lowest = recent[limit - 1]!.matched;
    if (lowest === words.length) return recent;
    if (lowest < words.length - 1) return undefined;
    const older = await queries.postsWithAllWords(this.db, words, limit, { before: since });
    const all = recent.filter((card) => card.matched === words.length);
    const fewer = recent.filter((card) => card.matched < words.length);
    return [...all, ...older, ...fewer].slice(0, limit);
  }

  private windowStart(size: number): Promise<string | undefined> {
    return this.cutoffs.get(String(size), () => queries.nthNewestPostTime(this.db, size));
  }
}
