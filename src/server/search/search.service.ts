import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PostSearchResponse, SearchUser } from '../../shared/api/search.js';
import type { SerializedJson } from '../../shared/api/serialized-json.js';
import { SEARCH_MAX_POSTS, SEARCH_MAX_USERS, SEARCH_QUERY_MAX_LENGTH } from '../../shared/limits.js';
import { peopleSearchPrefix, postSearchWords } from '../../shared/search.js';
import type { Viewer } from '../http/viewer.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import { ConcurrencyGate } from '../concurrency-gate.js';
import type { RateLimitConfig, SearchCostConfig } from '../config.js';
import type { AppDb, Database } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { AppError } from '../http/app-error.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { toSharedCard, visibleCardsJson, type SharedCard } from '../posts/post.service.js';
import { iconUrl } from '../directory/icon-images.js';
import { withRoomForHidden, type Visibility } from '../directory/visibility.js';
import { PostSearch, type PostSearchOptions } from './post-search.js';
import * as queries from './search.queries.js';

function checkLength(query: string) {
  if (query.length === 0 || query.length > SEARCH_QUERY_MAX_LENGTH) throw new AppError(400, 'SEARCH_QUERY_INVALID');
}

/** A search the server will not run now: the gate's queue is full, or its statement timed out. */
export const searchBusy = () => new AppError(503, 'SEARCH_BUSY', undefined, { 'retry-after': '1' });

/** SQLSTATE of a statement cancelled, here by statement_timeout. */
const QUERY_CANCELED = '57014';

/** Who is searching: every search counts against its address, and a signed-in one against the account too. */
export interface Searcher {
  /** The client's address as rate limits count it (an IPv6 /64 is one). */
  address: string;
  viewer: Viewer | null;
}

export interface SearchServiceOptions {
  cache: ReadCache;
  postSearch?: Partial<PostSearchOptions>;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  cost: SearchCostConfig;
  /** The one visibility rule: answers are shared, then filtered for each viewer. */
  visibility: Visibility;
}

/** A post search's answer, shared by every viewer: each card's JSON with its author. */
type SearchAnswer = SharedCard[];

export class SearchService {
  private readonly db: AppDb;
  private readonly postSearch: PostSearch;
  /** Answers, by the query's cleaned words. */
  private readonly cache: Region<SearchAnswer>;
  /** Searches of this process at once, and waiting (bounded). */
  private readonly gate: ConcurrencyGate;

  constructor(
    private readonly database: Database,
    private readonly options: SearchServiceOptions,
  ) {
    this.db = database.orm;
    // PGlite examines a candidate row in ~10 µs, one statement at a time: 3,000 keep a search
    // statement to a few tens of milliseconds there, which every request needing the database waits for.
    this.postSearch = new PostSearch(this.db, {
      maxExamined: database.kind === 'pglite' ? 3_000 : 20_000,
      cache: options.cache,
      ...options.postSearch,
    });
    this.cache = options.cache.region('post search', {
      // A new or deleted post (or a deleted account's posts) may belong in any answer, or leave it.
      staleAfter: (change) => (change.kind === 'post' || change.kind === 'account-deleted' ? ALL : []),
      bytes: (cards) => cards.reduce((sum, card) => sum + card.json.length + 32, 64),
    });
    this.gate = new ConcurrencyGate(options.cost.concurrency, options.cost.queue, searchBusy);
  }

  /** Up to 10 people whose username starts with the query; never the viewer, nor anyone hidden from them. */
  async users(query: string, searcher: Searcher): Promise<SearchUser[]> {
    await this.count(searcher);
    checkLength(query);
    const prefix = peopleSearchPrefix(query);
    if (!prefix) return [];
    // Not through the gate: one range scan of the username index, ten rows at most, costs the
    // same whatever is asked (measured: gating it cut people search from 2,100 to 640 req/s).
    const seen = await this.options.visibility.seenBy(searcher.viewer?.id);
    const rows = await queries.usersByPrefix(this.db, prefix, searcher.viewer?.id, SEARCH_MAX_USERS, seen);
    return rows.map((row) => ({ uid: row.id, username: row.username, icon: iconUrl(row.iconKey) }));
  }

  /**
   * Up to 100 posts matching any query word, most words matched first, then newest, as
   * `{ posts }` JSON: everyone asking the same words within a moment shares one search, whose
   * cards are then filtered for the viewer (it holds a few more for that: withRoomForHidden).
   */
  async postsJson(query: string, searcher: Searcher): Promise<SerializedJson<PostSearchResponse>> {
    await this.count(searcher);
    checkLength(query);
    const words = postSearchWords(query);
    // Queries that clean to the same words ("Dorm!" and "dorm") share one entry.
    const answer = await this.cache.get(words.join(' '), async () => {
      const limit = withRoomForHidden(SEARCH_MAX_POSTS);
      const rows = words.length > 0 ? await this.bounded((db) => this.postSearch.cards(words, limit, db)) : [];
      return rows.map(toSharedCard);
    });
    return visibleCardsJson(answer, await this.options.visibility.seenBy(searcher.viewer?.id), SEARCH_MAX_POSTS);
  }

  /**
   * Counted before anything else, answered from the cache or not: the limits are about how
   * often someone may ask, and a refused query costs nothing more.
   */
  private async count({ address, viewer }: Searcher) {
    const { limiter, limits } = this.options;
    await limiter.hit(`search:ip:${address}`, limits.searchPerIp, limits.searchWindowMs, 'SEARCHING_TOO_FAST');
    if (viewer) await limiter.hit(`search:user:${viewer.id}`, limits.searchPerUser, limits.searchWindowMs, 'SEARCHING_TOO_FAST');
  }

  /**
   * A search's database work: through the gate, and on PostgreSQL on connections whose statements
   * are cancelled after the statement timeout (503); set on the connections, not by a transaction
   * around each search, which cost three round trips of a search's few milliseconds. PGlite cannot
   * cancel a statement (it ignores statement_timeout); there the cost cap of PostSearch bounds each
   * one instead.
   *
   * The gate: at most `concurrency` searches run at once in this process; up to `queue` more wait
   * their turn, and the next one is refused at once (503 SEARCH_BUSY) instead of piling up.
   *
   * WARNING: the embedded database runs one statement at a time (in its own thread), in the order
   * asked. Sixteen searches in flight put sixteen statements ahead of the home feed's query;
   * through the gate (two at a time there) it waits behind two at most.
   *
   * WARNING: PGlite in the caller's own thread (tests and tools; the server gives it a thread of
   * its own) answers a query without any I/O, so a search's statements, and the next search the
   * slot passes to, follow each other as promise continuations that never give the event loop a
   * turn: measured, the home feed waited 1.4–4.2 s behind 16 searchers while none
   * of its requests were even read. Each search therefore starts on a new turn of the event loop
   * (and PostSearch takes one between its statements).
   */
  private bounded<T>(work: (db: AppDb) => Promise<T>): Promise<T> {
    const { statementTimeoutMs, concurrency } = this.options.cost;
    return this.gate.run(async () => {
      await nextTurn();
      if (statementTimeoutMs === 0 || !this.database.withStatementTimeout) return work(this.db);
      try {
        return await work(this.database.withStatementTimeout(statementTimeoutMs, concurrency));
      } catch (error) {
        if (hasSqlState(error, QUERY_CANCELED)) throw searchBusy();
        throw error;
      }
    });
  }
}
