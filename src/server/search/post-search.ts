import { setImmediate as nextTurn } from 'node:timers/promises';
import { queryGrams } from '../../shared/keywords.js';
import { MemoCache } from '../cache/memo-cache.js';
import type { AppDb } from '../db/database.js';
import { nthNewestPostTime, type CardRow } from '../posts/post.queries.js';
import * as queries from './search.queries.js';

export interface PostSearchOptions {
  /** Sizes of the windows of newest posts tried before the whole table, smallest first. */
  windows: number[];
  /** How long a window's start time is reused. Any start time gives exact results, so a stale one only widens the window. */
  cutoffTtlMs: number;
  /**
   * The cost cap: the most candidate rows (posts the index finds for a word) one ranking may
   * examine, estimated from the planner's statistics of the grams before anything is read.
   */
  maxExamined: number;
}

const DEFAULTS: PostSearchOptions = { windows: [2_000, 20_000], cutoffTtlMs: 60_000, maxExamined: 20_000 };

/** Beyond this, a table never analyzed is taken to be too large to rank whole. */
const MAX_WINDOW = 1_000_000;

/**
 * At most the share of posts the index finds for all of the words: for the posts storing
 * triples, the rarest gram the words need; plus, for those storing only pairs, the rarer of
 * PAIRS_ONLY and the rarest pair.
 */
function candidateShare(statistics: queries.GramStatistics, words: string[]): number {
  const share = (gram: string) => statistics.frequencies.get(gram) ?? statistics.otherwise;
  const { triples, pairs } = queryGrams(words);
  return Math.min(1, Math.min(...triples.map(share)) + Math.min(...pairs.map(share)));
}

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
 * Cost cap: no ranking examines more than about `maxExamined` candidate rows, as estimated from
 * ANALYZE's statistics of the grams (the share of posts holding each common one): windows shrink
 * to what the cap affords, and the older posts are read only when that stays within it too.
 * Otherwise (words that each match a large part of all posts, yet not one full page of posts in
 * the newest window matching all of them but one) the answer is the ranking of the largest window
 * ranked: the best matches among the newest posts. Ordinary searches rarely get there: a common
 * word fills the page from the newest posts, and a rare one has few candidates.
 */
export class PostSearch {
  private readonly options: PostSearchOptions;
  /** The creation time of the nth newest post, by n. */
  private readonly cutoffs: MemoCache<string | undefined>;
  /** The planner's statistics of the grams (refreshed by ANALYZE: daily on the embedded database). */
  private readonly statistics: MemoCache<queries.GramStatistics>;

  constructor(
    private readonly db: AppDb,
    options: Partial<PostSearchOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.cutoffs = new MemoCache(this.options.cutoffTtlMs);
    this.statistics = new MemoCache(this.options.cutoffTtlMs);
  }

  /**
   * `db` runs the queries: a transaction with a statement timeout, say; the cached window starts
   * are shared. Each statement starts on a new turn of the event loop (see SearchGate).
   */
  async cards(queryWords: string[], limit: number, db: AppDb = this.db): Promise<CardRow[]> {
    // Keywords are 2 or more characters long, so a shorter word can match nothing.
    const words = queryWords.filter((word) => Array.from(word).length >= 2);
    if (words.length === 0) return [];
    const statistics = await this.statistics.get('posts', () => queries.gramStatistics(db));
    // Candidate rows per post ranked: a window of n posts costs about n times this.
    const spread = words.reduce((sum, word) => sum + candidateShare(statistics, [word]), 0);
    const affordable = Math.max(limit, Math.floor(this.options.maxExamined / Math.max(spread, 1e-6)));
    const cost = { statistics, affordable };
    let best: queries.RankedCard[] | undefined;
    let previous = 0;
    for (const window of this.options.windows) {
      const size = Math.min(window, affordable);
      if (size <= previous) break;
      previous = size;
      await nextTurn();
      const since = await this.windowStart(db, size);
      // Fewer posts than the window: the whole table is as cheap.
      if (!since) {
        best = undefined;
        break;
      }
      await nextTurn();
      best = await queries.rankedPosts(db, words, limit, { since });
      const settled = await this.settle(db, words, limit, best, since, cost);
      if (settled) return settled;
    }
    if (best && !(await this.withinCap(db, spread, cost))) return best;
    await nextTurn();
    return queries.rankedPosts(db, words, limit);
  }

  /** The final page when the window's ranking decides it, else undefined. */
  private async settle(
    db: AppDb,
    words: string[],
    limit: number,
    recent: queries.RankedCard[],
    since: string,
    cost: { statistics: queries.GramStatistics; affordable: number },
  ): Promise<CardRow[] | undefined> {
    if (recent.length < limit) return undefined;
    const lowest = recent[limit - 1]!.matched;
    if (lowest === words.length) return recent;
    if (lowest < words.length - 1) return undefined;
    if (!(await this.withinCap(db, candidateShare(cost.statistics, words), cost))) return undefined;
    await nextTurn();
    const older = await queries.postsWithAllWords(db, words, limit, { before: since });
    const all = recent.filter((card) => card.matched === words.length);
    const fewer = recent.filter((card) => card.matched < words.length);
    return [...all, ...older, ...fewer].slice(0, limit);
  }

  /**
   * Whether examining `share` of every post stays within the cap: by the statistics when
   * there are some, else (a table never analyzed) only if it has no more posts than the cap
   * affords, which one look at the feed index tells.
   */
  private async withinCap(db: AppDb, share: number, cost: { statistics: queries.GramStatistics; affordable: number }): Promise<boolean> {
    if (cost.statistics.frequencies.size > 0) return cost.statistics.posts * share <= this.options.maxExamined;
    return cost.affordable >= MAX_WINDOW || !(await this.windowStart(db, cost.affordable));
  }

  private windowStart(db: AppDb, size: number): Promise<string | undefined> {
    return this.cutoffs.get(String(size), () => nthNewestPostTime(db, size));
  }
}
