import type { PostSearchResponse, SearchUser } from '../../shared/api/search.js';
import { SEARCH_MAX_POSTS, SEARCH_MAX_USERS, SEARCH_QUERY_MAX_LENGTH } from '../../shared/limits.js';
import { peopleSearchPrefix, postSearchWords } from '../../shared/search.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { toCard } from '../posts/post.service.js';
import { iconUrl } from '../users/icon-images.js';
import { PostSearch, type PostSearchOptions } from './post-search.js';
import { MemoCache } from '../cache/memo-cache.js';
import * as queries from './search.queries.js';

function checkLength(query: string) {
  if (query.length === 0 || query.length > SEARCH_QUERY_MAX_LENGTH) throw new AppError(400, 'SEARCH_QUERY_INVALID');
}

export class SearchService {
  private readonly postSearch: PostSearch;
  /** Answers as JSON, by the query's cleaned words. */
  private readonly cache: MemoCache<string>;

  constructor(
    private readonly db: AppDb,
    options: { cacheMs?: number; postSearch?: Partial<PostSearchOptions> } = {},
  ) {
    this.postSearch = new PostSearch(db, options.postSearch);
    this.cache = new MemoCache(options.cacheMs ?? 0);
  }

  /** Posts were created or deleted: answers remembered before may be wrong now. */
  postsChanged() {
    this.cache.clear();
  }

  /** Up to 10 people whose username starts with the query; never the viewer. */
  async users(query: string, viewer: UserRow | null): Promise<SearchUser[]> {
    checkLength(query);
    const prefix = peopleSearchPrefix(query);
    if (!prefix) return [];
    const rows = await queries.usersByPrefix(this.db, prefix, viewer?.id, SEARCH_MAX_USERS);
    return rows.map((row) => ({ uid: row.id, username: row.username, icon: iconUrl(row.iconKey) }));
  }

  /**
   * Up to 100 posts matching any query word, most words matched first, then newest, as
   * `{ posts }` JSON: everyone asking the same words within a moment shares one search.
   */
  async postsJson(query: string): Promise<string> {
    checkLength(query);
    const words = postSearchWords(query);
    // Queries that clean to the same words ("Dorm!" and "dorm") share one entry.
    return this.cache.get(words.join(' '), async () => {
      const rows = words.length > 0 ? await this.postSearch.cards(words, SEARCH_MAX_POSTS) : [];
      const response: PostSearchResponse = { posts: rows.map(toCard) };
      return JSON.stringify(response);
    });
  }
}
