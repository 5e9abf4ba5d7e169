/**
 * Search keywords of a description (spec section 3): lower-case it, turn line breaks into
 * spaces, keep only letters, digits and spaces, split into words and take every substring of
 * length 2 or more of each word, without duplicates.
 *
 * "Letters" and "digits" are Unicode ones so that café and 東京 are searchable too.
 *
 * The spec's keywords are not what the database stores: a word of n distinct characters has
 * n(n-1)/2 of them (19,900 for one 200-character word, ~9 MB of GIN index). Posts store their
 * search grams and search text instead (below), which answer "is this word a substring of one
 * of the post's words?" exactly as the keywords would, with an index bounded per post.
 */
export function cleanWords(description: string): string[] {
  return description
    .toLowerCase()
    .replace(/\s/gu, ' ')
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .split(' ')
    .filter((word) => word.length > 0);
}

/** The spec's keywords in order: word by word, each start position, shortest first (with repeats). */
function* keywordsInOrder(description: string): Generator<string> {
  for (const word of cleanWords(description)) {
    // Code points, not UTF-16 units, so a substring never splits a character outside the BMP.
    const chars = Array.from(word);
    for (let start = 0; start < chars.length - 1; start++) {
      for (let end = start + 2; end <= chars.length; end++) yield chars.slice(start, end).join('');
    }
  }
}

export function deriveKeywords(description: string): string[] {
  return [...new Set(keywordsInOrder(description))];
}

/** The first `count` distinct keywords of deriveKeywords, without deriving the rest. */
export function firstKeywords(description: string, count: number): string[] {
  const keywords = new Set<string>();
  for (const keyword of keywordsInOrder(description)) {
    if (keywords.size >= count) break;
    keywords.add(keyword);
  }
  return [...keywords];
}

/**
 * What a post stores to be found (GIN-indexed): every pair of neighbouring characters of each
 * word, without duplicates. A query word of two characters is found by its own pair; a longer
 * one by all of its pairs, then checked against the post's search text. At most 199 pairs for
 * any description (one 200-character word): ~11 KB of index at worst, where the spec's 19,900
 * keywords took ~9 MB. Pairs, not triples too: 199 + 198 keys of three-byte characters, each a
 * new GIN entry, measured 25 KB per post (bench/search-index.ts).
 */
export function searchGrams(description: string): string[] {
  const grams = new Set<string>();
  for (const word of cleanWords(description)) for (const gram of pairsOf(word)) grams.add(gram);
  return [...grams];
}

/** Neighbouring code points of a word, in order, with repeats. */
function pairsOf(word: string): string[] {
  const chars = Array.from(word);
  return chars.slice(1).map((char, i) => chars[i]! + char);
}

/**
 * The post's distinct words of 2 or more characters, separated by spaces: a query word is a
 * substring of one of the words iff it is a substring of this text (words hold no spaces).
 */
export function searchText(description: string): string {
  return [...new Set(cleanWords(description).filter((word) => Array.from(word).length >= 2))].join(' ');
}

/** The grams a post must hold to have the query word: its pairs (none for a single character). */
export function queryGrams(word: string): string[] {
  return [...new Set(pairsOf(word))];
}

/** Whether the grams alone decide a match: a two-character word is its own gram; longer ones need the search text. */
export const gramsDecide = (word: string) => Array.from(word).length <= 2;
