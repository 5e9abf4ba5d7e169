import { setImmediate as nextTurn } from 'node:timers/promises';
import { PAIRS_ONLY, queryGrams } from '../../shared/keywords.js';
import { ReadCache, type Region } from '../cache/read-cache.js';
import type { AppDb } from '../db/database.js';
import { NewestPostTimes } from '../posts/newest-post-times.js';
import type { CardRow } from '../posts/post.queries.js';
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
  /**
   * How the newest posts are read: the cheaper way by the statistics, or always one way (the
   * tests prove both give the same page).
   */
  lookup: 'cheaper' | 'walk' | 'index';
  /** The window starts, shared with the process's other users of them (else its own, kept cutoffTtlMs). */
  newestPostTimes?: NewestPostTimes;
  /** Where the grams' statistics (and window starts of its own) are kept: the process's read cache, else one of its own. */
  cache?: ReadCache;
}

const DEFAULTS: PostSearchOptions = { windows: [2_000, 20_000], cutoffTtlMs: 60_000, maxExamined: 20_000, lookup: 'cheaper' };

/**
 * A GIN lookup puts each post holding its grams in a bitmap; reading a post's words costs about
 * as much as 5 of those (PostgreSQL, 1M posts: 10 ms for the 54,336 posts with "piz", 15 ms for
 * walking 18,000 posts).
 */
const ENTRIES_PER_ROW = 5;

/** Beyond this, a table never analyzed is taken to be too large to rank whole. */
const MAX_WINDOW = 1_000_000;

/**
 * At most the share of posts the index finds for all of the words: for the posts storing
 * triples, the rarest gram the words need; plus, for those storing only pairs, the rarer of
 * PAIRS_ONLY and the rarest pair.
 */
function candidateShare(statistics: Statistics, words: string[]): number {
  const share = (gram: string) => shareOf(statistics, gram);
  const { triples, pairs } = queryGrams(words);
  return Math.min(1, Math.min(...triples.map(share)) + Math.min(...pairs.map(share)));
}

type Statistics = queries.GramStatistics;

/** At most the share of posts holding any of the words: the sum of their candidate shares. */
const eitherShare = (statistics: Statistics, words: string[]) => words.reduce((sum, word) => sum + candidateShare(statistics, [word]), 0);

/** About the share of posts holding every word, if the words were independent: the product. */
const allShare = (statistics: Statistics, words: string[]) =>
  words.reduce((share, word) => share * Math.min(1, candidateShare(statistics, [word])), 1);

const shareOf = (statistics: Statistics, gram: string) => statistics.frequencies.get(gram) ?? statistics.otherwise;

/**
 * Per word, its rarest triple and its rarest pair (for posts storing only pairs): a post holding
 * all of a word's grams holds these, and the word itself is then checked against its words. One
 * gram per word keeps a lookup to one posting list per word, and the planner estimates a single
 * gram from its statistics (for all the grams of a word it multiplies their shares as if they
 * were independent: 1 row estimated for "immaculate", which 55,088 of 1M posts hold).
 */
function rarestGrams(statistics: Statistics): queries.GramPick {
  const rarest = (grams: string[]) => grams.reduce((best, gram) => (shareOf(statistics, gram) < shareOf(statistics, best) ? gram : best));
  return (words) => {
    const triples = new Set<string>();
    const pairs = new Set<string>();
    for (const word of words) {
      const grams = queryGrams([word]);
      triples.add(rarest(grams.triples));
      pairs.add(rarest(grams.pairs.filter((pair) => pair !== PAIRS_ONLY)));
    }
    return { triples: [...triples], pairs: [PAIRS_ONLY, ...pairs] };
  };
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
 *
 * Two words, the commonest query after one, first try their two tiers (twoWords): the posts
 * with both, then those with either, each read only as far as the page needs.
 */
export class PostSearch {
  private readonly options: PostSearchOptions;
  private readonly cutoffs: NewestPostTimes;
  /** The planner's statistics of the grams (refreshed by ANALYZE: daily on the embedded database). */
  private readonly statistics: Region<Statistics>;

  constructor(
    private readonly db: AppDb,
    options: Partial<PostSearchOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const { cutoffTtlMs: ttlMs } = this.options;
    const cache = this.options.cache ?? ReadCache.small(ttlMs);
    this.cutoffs = this.options.newestPostTimes ?? new NewestPostTimes(db, cache, ttlMs);
    // Estimates: no change makes them wrong, so none makes them stale.
    this.statistics = cache.region('gram statistics', { ttlMs, bytes: (statistics) => 64 + statistics.frequencies.size * 48 });
  }

  /**
   * `db` runs the queries: a transaction with a statement timeout, say; the cached window starts
   * are shared. Each statement starts on a new turn of the event loop (see SearchService.bounded).
   */
  async cards(queryWords: string[], limit: number, db: AppDb = this.db): Promise<CardRow[]> {
    // Keywords are 2 or more characters long, so a shorter word can match nothing.
    const words = queryWords.filter((word) => Array.from(word).length >= 2);
    if (words.length === 0) return [];
    const statistics = await this.statistics.get('posts', () => queries.gramStatistics(db));
    if (words.length === 2) {
      const page = await this.twoWords(db, words, limit, statistics);
      if (page) return page;
    }
    // Candidate rows per post ranked: a window of n posts costs about n times this.
    const spread = eitherShare(statistics, words);
    const affordable = Math.max(limit, Math.floor(this.options.maxExamined / Math.max(spread, 1e-6)));
    const cost = { statistics, affordable };
    // The ranking of the posts created at or after `since`, the window ranked so far.
    let best: queries.RankedCard[] | undefined;
    let since: string | undefined;
    let ranked = 0;
    for (const window of this.options.windows) {
      const size = Math.min(window, affordable);
      if (size <= ranked) break;
      await nextTurn();
      const start = await this.windowStart(db, size);
      // Fewer posts than the window: the whole table is as cheap.
      if (!start) {
        best = undefined;
        break;
      }
      // Window starts are cached apiece: one read later may start after a larger window's.
      if (since !== undefined && start >= since) continue;
      await nextTurn();
      best = await this.extend(db, words, limit, best ?? [], { since: start, before: since }, size - ranked, statistics);
      since = start;
      ranked = size;
      const settled = await this.settle(db, words, limit, best, since, cost);
      if (settled) return settled;
    }
    if (best && !(await this.withinCap(db, spread, cost))) return best;
    await nextTurn();
    return queries.rankedPosts(db, words, limit);
  }

  /**
   * Two words rank in two tiers: the posts with both, newest first, then those with either.
   * The statistics estimate how many posts have both (taking the words to be independent):
   *
   * - many: the smallest window expected to hold two pages of them is read for them alone (the
   *   cheaper of a walk and a lookup), and a full page is the answer;
   * - over a page and a half in a window of at most half the posts (yet few in the table): that
   *   window is read for them first, as for many, and a full page of them is the answer;
   * - few (within the first window's size): one GIN lookup reads them all, up to that size. A
   *   full page of them is the answer; otherwise the rest of the page is the newest posts with
   *   either word, those with both left out: one lookup when the candidates are few, else a walk
   *   of the newest posts that stops at the limit.
   *
   * Undefined when that does not settle the page (the estimate was wrong, or too few posts have
   * either word among the newest): the windows then rank it. One or two statements, each reading
   * only what can reach the page, where the windows read a whole window and sort it by words matched.
   */
  private async twoWords(db: AppDb, words: string[], limit: number, statistics: Statistics): Promise<CardRow[] | undefined> {
    const { maxExamined, windows } = this.options;
    if (statistics.frequencies.size === 0) return undefined;
    const density = allShare(statistics, words);
    const expected = density * statistics.posts;
    const window = windows.find((size) => size < statistics.posts && density * size >= 2 * limit);
    if (window !== undefined) return this.bothInWindow(db, words, limit, statistics, window);
    const few = windows[0] ?? limit;
    if (expected > few) return undefined;
    // Over a page and a half expected within a window of at most half the posts: read there first
    // rather than every post with both words ("again library" at 100k posts, limit 120: the 970
    // with both, 981 buffers, 7.8 ms on PostgreSQL and 21 ms on PGlite; or the ~190 of the newest
    // 20,000, 350 buffers, 2 and 4 ms). Short of 1.6 pages expected, most such windows held less
    // than a page (5 of 7 two-word searches measured there, against none of the 6 above it), and
    // the whole table's lookup then follows the window's.
    const half = windows.find((size) => 2 * size <= statistics.posts && density * size >= 1.6 * limit);
    if (half !== undefined) {
      const page = await this.bothInWindow(db, words, limit, statistics, half);
      if (page) return page;
    }
    const grams = rarestGrams(statistics);
    await nextTurn();
    const both = await queries.postsWithAllWordsIfFew(db, words, limit, grams, few);
    if (!both) return undefined;
    if (both.length >= limit) return both;
    const either = await this.newestWithEither(db, words, limit, statistics, grams, Math.min(maxExamined, Math.max(...windows, limit)));
    if (!either) return undefined;
    const found = new Set(both.map((card) => card.id));
    return [...both, ...either.filter((card) => !found.has(card.id))].slice(0, limit);
  }

  /** The newest `limit` posts with every word among the newest `size`, or undefined when fewer are there. */
  private async bothInWindow(
    db: AppDb,
    words: string[],
    limit: number,
    statistics: Statistics,
    size: number,
  ): Promise<CardRow[] | undefined> {
    await nextTurn();
    const since = await this.windowStart(db, size);
    if (!since) return undefined;
    await nextTurn();
    const newest = await queries.postsWithAllWords(db, words, limit, { since }, this.lookup(statistics, words, true, size, limit));
    return newest.length >= limit ? newest : undefined;
  }

  /**
   * The newest `limit` posts with either word, or undefined when the walk of the newest `walk`
   * posts (the most it may read) finds fewer than `limit` of them.
   */
  private async newestWithEither(
    db: AppDb,
    words: string[],
    limit: number,
    statistics: Statistics,
    grams: queries.GramPick,
    walk: number,
  ): Promise<CardRow[] | undefined> {
    // Read through the index: every candidate. Walked: about the posts holding one of them per match.
    const share = Math.min(1, eitherShare(statistics, words));
    const walked = Math.min(walk, limit / Math.max(share, 1e-9));
    await nextTurn();
    const start = share * statistics.posts > walked || this.options.lookup === 'walk' ? await this.windowStart(db, walk) : undefined;
    // Few candidates, or fewer posts than the walk: read every match.
    if (!start) return queries.postsWithAnyWord(db, words, limit, {}, { grams });
    await nextTurn();
    const newest = await queries.postsWithAnyWord(db, words, limit, { since: start }, { walk: true });
    return newest.length >= limit ? newest : undefined;
  }

  /**
   * The ranking of the window widened by `range` (about `rows` posts, all older than those
   * ranked): the range's own ranking merged in. Only the posts that could still get in are
   * looked for: when the page is full and its last post matches all words but one, an older
   * post gets in only by matching every word.
   */
  private async extend(
    db: AppDb,
    words: string[],
    limit: number,
    ranked: queries.RankedCard[],
    range: queries.TimeRange,
    rows: number,
    statistics: Statistics,
  ): Promise<queries.RankedCard[]> {
    const allWords = words.length === 1 || (ranked.length >= limit && ranked[limit - 1]!.matched === words.length - 1);
    // Older posts matching every word come after those ranked: only this many can get in.
    const wanted = allWords ? limit - ranked.filter((card) => card.matched === words.length).length : limit;
    const lookup = this.lookup(statistics, words, allWords, rows, wanted);
    const found = allWords
      ? (await queries.postsWithAllWords(db, words, wanted, range, lookup)).map((row) => ({ ...row, matched: words.length }))
      : await queries.rankedPosts(db, words, limit, range, lookup);
    // Stable: among posts matching as many words, the newer (already ranked) ones stay first.
    return [...ranked, ...found].sort((a, b) => b.matched - a.matched).slice(0, limit);
  }

  /**
   * How to read a range of about `rows` of the newest posts: a walk reads each post's words
   * (stopping at the limit when every word must match); a GIN lookup reads the posting lists of
   * the rarest gram of each word through the whole table, then the words of the posts of the
   * range holding them. Common words make the walk cheaper, rare ones the lookup.
   */
  private lookup(statistics: Statistics, words: string[], allWords: boolean, rows: number, limit: number): queries.Lookup {
    const { lookup } = this.options;
    if (lookup === 'walk') return { walk: true };
    if (lookup === 'index' || statistics.frequencies.size === 0) return {};
    const groups = allWords ? [words] : words.map((word) => [word]);
    // Each group's lookup finds at most its candidate share of all posts, and of the range.
    const index = groups.reduce(
      (sum, group) => sum + Math.min(1, candidateShare(statistics, group)) * (statistics.posts / ENTRIES_PER_ROW + rows),
      0,
    );
    const matching = allShare(statistics, words);
    const walk = allWords ? Math.min(rows, limit / Math.max(matching, 1e-9)) : rows;
    return walk < index ? { walk: true } : { grams: rarestGrams(statistics) };
  }

  /** The final page when the window's ranking decides it, else undefined. */
  private async settle(
    db: AppDb,
    words: string[],
    limit: number,
    recent: queries.RankedCard[],
    since: string,
    cost: { statistics: Statistics; affordable: number },
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
  private async withinCap(db: AppDb, share: number, cost: { statistics: Statistics; affordable: number }): Promise<boolean> {
    if (cost.statistics.frequencies.size > 0) return cost.statistics.posts * share <= this.options.maxExamined;
    return cost.affordable >= MAX_WINDOW || !(await this.windowStart(db, cost.affordable));
  }

  private windowStart(db: AppDb, size: number): Promise<string | undefined> {
    return this.cutoffs.at(size, db);
  }
}
