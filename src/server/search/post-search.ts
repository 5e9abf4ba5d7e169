import { MemoCache } from '../cache/memo-cache.js';
import type { AppDb } from '../db/database.js';
import type { CardRow } from '../posts/post.queries.js';
import * as queries from './search.queries.js';

export interface PostSearchOptions {
  /** Sizes of the windows of newest posts tried before the whole table, smallest first. */
  windows: number[];
  /** How long a window's start time is reused. Any start time gives exact results, so a stale one only widens the window. */
  cutoffTtlMs: number;
  /**
   * The most candidate rows one ranking may examine (the cost cap): a window is ranked only if
   * its size times the number of words is within it (the first always is), and the rest of the
   * table only if each word's candidates there are within it divided by the number of words.
   */
  maxExamined: number;
}

const DEFAULTS: PostSearchOptions = { windows: [2_000, 20_000], cutoffTtlMs: 60_000, maxExamined: 20_000 };

/**
 * Post search: posts with a word containing any query word, the most words matched first, then
 * newest. Common words match a fifth of all posts, and ranking every match costs a heap read
 * each (1.4 s for one word on PGlite with 100k posts), so the newest posts are ranked first and
 * the rest of the table is read only when it could still change the answer:
 *
 * - an older post never beats a newer one that matches as many words, so when the window
 *   yields a full page whose last post matches every word, the page is final;
 * - when that last post matches all words but one, only older posts matching every word can
 *   still get in, and one GIN lookup of all the words finds them;
 * - otherwise a larger window, and finally the whole table.
 *
 * Cost cap: no ranking examines more than `maxExamined` candidate rows. When the older posts
 * would (words that each match a large part of all posts, yet not one full page of posts in the
 * newest window matching all of them but one), the answer is the ranking of the largest window
 * ranked: the best matches among the newest posts. Ordinary searches never get there: a common
 * word fills the page from the newest posts, and a rare one has few candidates.
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

  /** `db` runs the queries: a transaction with a statement timeout, say; the cached window starts are shared. */
  async cards(queryWords: string[], limit: number, db: AppDb = this.db): Promise<CardRow[]> {
    // Keywords are 2 or more characters long, so a shorter word can match nothing.
    const words = queryWords.filter((word) => Array.from(word).length >= 2);
    if (words.length === 0) return [];
    const perWord = Math.floor(this.options.maxExamined / words.length);
    let best: queries.RankedCard[] | undefined;
    for (const [index, size] of this.options.windows.entries()) {
      if (index > 0 && size > perWord) break;
      const since = await this.windowStart(db, size);
      // Fewer posts than the window: the whole table is as cheap.
      if (!since) {
        best = undefined;
        break;
      }
      best = await queries.rankedPosts(db, words, limit, { since });
      const settled = await this.settle(db, words, limit, best, since, perWord);
      if (settled) return settled;
    }
    if (best && !(await queries.candidatesWithin(db, words.map((word) => [word]), perWord))) return best;
    return queries.rankedPosts(db, words, limit);
  }

  /** The final page when the window's ranking decides it, else undefined. */
  private async settle(
    db: AppDb,
    words: string[],
    limit: number,
    recent: queries.RankedCard[],
    since: string,
    perWord: number,
  ): Promise<CardRow[] | undefined> {
    if (recent.length < limit) return undefined;
    const lowest = recent[limit - 1]!.matched;
    if (lowest === words.length) return recent;
    if (lowest < words.length - 1) return undefined;
    if (!(await queries.candidatesWithin(db, [words], perWord * words.length, { before: since }))) return undefined;
    const older = await queries.postsWithAllWords(db, words, limit, { before: since });
    const all = recent.filter((card) => card.matched === words.length);
    const fewer = recent.filter((card) => card.matched < words.length);
    return [...all, ...older, ...fewer].slice(0, limit);
  }

  private windowStart(db: AppDb, size: number): Promise<string | undefined> {
    return this.cutoffs.get(String(size), () => queries.nthNewestPostTime(db, size));
  }
}
