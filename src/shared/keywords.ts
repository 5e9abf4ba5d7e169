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
 * Index bytes a post's grams may take, counted as their UTF-8 bytes plus 28 each (a new GIN
 * entry's tuple, posting and line pointer). Seeded posts of up to 200 characters need at most
 * ~5,000; only words built to be costly need more.
 */
export const SEARCH_GRAMS_BUDGET = 6_144;
const GRAM_OVERHEAD = 28;

/**
 * UTF-8 bytes of a string, counted from its UTF-16 units: a TextEncoder allocates an array per
 * call, and for the ~100 grams of every post that made searchGrams 8× slower (134 against
 * 18 µs a post, measured seeding 1M posts, where it was most of the seeder's own time).
 */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one code point of 4 bytes. (A lone surrogate is 3, as U+FFFD.)
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Marks a post that stores only its pairs (its triples were over budget). Never a real gram:
 * grams are two or three letters or digits.
 */
export const PAIRS_ONLY = '';

/**
 * What a post stores to be found (GIN-indexed): every substring of 2 and 3 characters of each
 * word, without duplicates. A query word of two characters is found by its own pair, a longer
 * one by all of its triples, then checked against the post's search text.
 *
 * When the triples would put the grams over SEARCH_GRAMS_BUDGET, the post stores its pairs and
 * PAIRS_ONLY instead, and a longer query word finds it by its pairs. A 200-character word of
 * distinct characters thus stores 199 pairs (~11 KB of index, measured), not the spec's 19,900
 * keywords (~9 MB), nor its 397 pairs and triples (~25 KB: bench/search-index.ts). Pairs alone
 * for every post would be bounded too, but are not selective: "sunday" has 188 matches in 100k
 * seeded posts and 9,758 posts with all of its pairs, against a few hundred with its triples.
 */
export function searchGrams(description: string): string[] {
  const pairs = new Set<string>();
  const grams = new Set<string>();
  for (const word of cleanWords(description)) {
    const chars = Array.from(word);
    for (let start = 0; start + 2 <= chars.length; start++) {
      const pair = chars[start]! + chars[start + 1]!;
      pairs.add(pair);
      grams.add(pair);
      if (start + 3 <= chars.length) grams.add(pair + chars[start + 2]!);
    }
  }
  let bytes = 0;
  for (const gram of grams) bytes += utf8Length(gram) + GRAM_OVERHEAD;
  return bytes <= SEARCH_GRAMS_BUDGET ? [...grams] : [...pairs, PAIRS_ONLY];
}

/**
 * The post's distinct words of 2 or more characters, separated by spaces: a query word is a
 * substring of one of the words iff it is a substring of this text (words hold no spaces).
 */
export function searchText(description: string): string {
  return [...new Set(cleanWords(description).filter((word) => Array.from(word).length >= 2))].join(' ');
}

/** Substrings of `length` code points, in order, without duplicates. */
function piecesOf(word: string, length: number): string[] {
  const chars = Array.from(word);
  const pieces = new Set<string>();
  for (let start = 0; start + length <= chars.length; start++) pieces.add(chars.slice(start, start + length).join(''));
  return [...pieces];
}

/**
 * How a post's grams show it may have the query words (all of them): a two-character word by
 * its own pair; longer ones by all of their triples, or, on a post that stores only pairs, by
 * PAIRS_ONLY and all of their pairs. Each alternative is the grams the post must all hold; the
 * longer words must then still be found in the search text (see gramsDecide).
 */
export function queryGrams(words: string[]): { triples: string[]; pairs: string[] } {
  const pairs = new Set<string>();
  const triples = new Set<string>();
  for (const word of words) {
    for (const pair of piecesOf(word, 2)) pairs.add(pair);
    const pieces = piecesOf(word, 3);
    for (const piece of pieces.length > 0 ? pieces : piecesOf(word, 2)) triples.add(piece);
  }
  return { triples: [...triples], pairs: [PAIRS_ONLY, ...pairs] };
}

/** Whether the grams alone decide a match: a two-character word is its own gram; longer ones need the search text. */
export const gramsDecide = (word: string) => Array.from(word).length <= 2;
