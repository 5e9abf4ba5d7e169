import { cleanWords } from './keywords.js';
import { SEARCH_MAX_WORDS } from './limits.js';

/**
 * People search (spec section 5): a query with leading or trailing whitespace finds nobody;
 * a leading '@' is stripped; matching is in lower case. Returns null when nobody can match.
 */
export function peopleSearchPrefix(query: string): string | null {
  if (query !== query.trim()) return null;
  const prefix = query.replace(/^@/, '').toLowerCase();
  return prefix === '' ? null : prefix;
}

/**
 * Post search words: the lower-cased query split on spaces, cleaned like the stored keywords
 * (so "#Dorm," finds "dorm"), without duplicates, at most SEARCH_MAX_WORDS.
 */
export function postSearchWords(query: string): string[] {
  return [...new Set(cleanWords(query))].slice(0, SEARCH_MAX_WORDS);
}
