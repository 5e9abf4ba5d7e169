import type { PostCard } from '../../shared/api/posts.js';
import type { SearchUser } from '../../shared/api/search.js';
import { SEARCH_MAX_POSTS, SEARCH_MAX_USERS, SEARCH_QUERY_MAX_LENGTH } from '../../shared/limits.js';
import { peopleSearchPrefix, postSearchWords } from '../../shared/search.js';
import type { UserRow } from '../auth/auth.queries.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { toCard } from '../posts/post.service.js';
import { iconUrl } from '../users/icon-images.js';
import * as queries from './search.queries.js';

function checkLength(query: string) {
  if (query.length === 0 || query.length > SEARCH_QUERY_MAX_LENGTH) throw new AppError(400, 'SEARCH_QUERY_INVALID');
}

export class SearchService {
  constructor(private readonly db: AppDb) {}

  /** Up to 10 people whose username starts with the query; never the viewer. */
  async users(query: string, viewer: UserRow | null): Promise<SearchUser[]> {
    checkLength(query);
    const prefix = peopleSearchPrefix(query);
    if (!prefix) return [];
    const rows = await queries.usersByPrefix(this.db, prefix, viewer?.id, SEARCH_MAX_USERS);
    return rows.map((row) => ({ uid: row.id, username: row.username, icon: iconUrl(row.iconKey) }));
  }

  /** Up to 100 posts matching any query word, most words matched first, then newest. */
  async posts(query: string): Promise<PostCard[]> {
    checkLength(query);
    const words = postSearchWords(query);
    if (words.length === 0) return [];
    const rows = await queries.postsByKeywords(this.db, words, SEARCH_MAX_POSTS);
    return rows.map(toCard);
  }
}
