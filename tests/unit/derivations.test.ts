import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveHashtags } from '../../src/shared/hashtags.js';
import {
  cleanWords,
  deriveKeywords,
  firstKeywords,
  gramsDecide,
  PAIRS_ONLY,
  queryGrams,
  searchGrams,
  searchText,
} from '../../src/shared/keywords.js';
import { DESCRIPTION_MAX_LENGTH } from '../../src/shared/limits.js';

const codePoints = (value: string) => Array.from(value);
/** No lone UTF-16 surrogate (String.prototype.isWellFormed is ES2024). */
const wellFormed = (value: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

/** Every substring of 2 or more code points of a word: the spec's definition, written out plainly. */
function substringsOf(word: string): string[] {
  const chars = codePoints(word);
  const out: string[] = [];
  for (let length = 2; length <= chars.length; length++) {
    for (let start = 0; start + length <= chars.length; start++) out.push(chars.slice(start, start + length).join(''));
  }
  return out;
}

/**
 * Descriptions made of the characters that matter: ASCII letters in both cases, digits,
 * spaces, tabs, newlines, punctuation, '#', '_', accented and non-Latin letters, characters
 * outside the BMP, and letters whose lower case changes length (İ, ẞ).
 */
const descriptionChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcxyzABCXYZ019'.split('')) },
  { weight: 3, arbitrary: fc.constantFrom(' ', ' ', '\n', '\t', '\r\n', '\u00a0') },
  { weight: 2, arbitrary: fc.constantFrom('#', '#', '_', '.', ',', '!', "'", '-', '@', '(', ')') },
  { weight: 2, arbitrary: fc.constantFrom('é', 'É', 'ß', 'ẞ', 'İ', 'Σ', 'ς', 'ı', '東', '京', '٣', 'ǅ') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '𝒜', '𐐀', '👍🏽', '\u0301', '\u200b') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const description = fc.string({ unit: descriptionChar, maxLength: 200 }).filter((d) => d.length <= 200);
const RUNS = { numRuns: 300 };

describe('deriveKeywords: examples', () => {
  it('takes every substring of 2 or more characters of each word', () => {
    const keywords = deriveKeywords('Hello World');
    expect(keywords).toEqual(expect.arrayContaining(['he', 'hello', 'world', 'ld', 'll', 'ell', 'orl']));
    expect(keywords).not.toContain('h');
    expect(keywords).not.toContain('d');
    expect(keywords).not.toContain('hello world');
    expect(keywords).not.toContain('ow');
    // hello and world have 10 distinct substrings of length >= 2 each, none shared.
    expect(keywords).toHaveLength(20);
  });

  it('gives exactly the substrings for a short word', () => {
    expect([...deriveKeywords('abc')].sort()).toEqual(['ab', 'abc', 'bc']);
  });

  it('lower-cases', () => {
    expect(deriveKeywords('ABC').sort()).toEqual(['ab', 'abc', 'bc']);
  });

  it('turns newlines (and other line breaks) into spaces', () => {
    const expected = deriveKeywords('foo bar').sort();
    expect(deriveKeywords('foo\nbar').sort()).toEqual(expected);
    expect(deriveKeywords('foo\r\nbar').sort()).toEqual(expected);
    expect(deriveKeywords('foo\tbar').sort()).toEqual(expected);
    expect(deriveKeywords('foo\nbar')).not.toContain('foobar');
    expect(deriveKeywords('foo\nbar')).not.toContain('obar');
  });

  it('removes punctuation and symbols, joining what was around them', () => {
    expect(deriveKeywords('hello, world!').sort()).toEqual(deriveKeywords('hello world').sort());
    expect(deriveKeywords("it's")).toEqual(expect.arrayContaining(['its', 'ts']));
    expect(deriveKeywords('e-mail')).toContain('email');
    expect(deriveKeywords('#dorm @uni')).toEqual(expect.arrayContaining(['dorm', 'uni']));
    for (const keyword of deriveKeywords('a.b, c! #d? (e) "f" 100% e-mail 😀ok')) {
      expect(keyword).toMatch(/^[\p{L}\p{N}]+$/u);
    }
  });

  it('keeps digits and letters of any script', () => {
    expect(deriveKeywords('room 101')).toEqual(expect.arrayContaining(['ro', 'room', '10', '101', '01']));
    expect(deriveKeywords('Café')).toEqual(expect.arrayContaining(['café', 'fé']));
    expect(deriveKeywords('東京')).toEqual(['東京']);
  });

  it('counts characters, never splitting one outside the BMP', () => {
    // 𝒜 is a letter made of two UTF-16 units.
    expect(deriveKeywords('𝒜b').sort()).toEqual(['𝒜b']);
    for (const keyword of deriveKeywords('x𝒜𝒜y')) expect(wellFormed(keyword)).toBe(true);
  });

  it('gives nothing for one-character words, empty text or only punctuation', () => {
    expect(deriveKeywords('a b c')).toEqual([]);
    expect(deriveKeywords('')).toEqual([]);
    expect(deriveKeywords('   \n\t ')).toEqual([]);
    expect(deriveKeywords('!!! ... ???')).toEqual([]);
  });

  it('has no duplicates when words or substrings repeat', () => {
    expect(deriveKeywords('aa aa AA')).toEqual(['aa']);
    expect(deriveKeywords('aaaa').sort()).toEqual(['aa', 'aaa', 'aaaa']);
  });
});

describe('cleanWords', () => {
  it('lower-cases, removes punctuation and splits on any whitespace', () => {
    expect(cleanWords("  Hello,\nWORLD!\t it's  ")).toEqual(['hello', 'world', 'its']);
  });
});

describe('deriveKeywords: properties', () => {
  it('every keyword is a substring of 2+ characters of some cleaned word', () => {
    fc.assert(
      fc.property(description, (text) => {
        const words = cleanWords(text);
        for (const keyword of deriveKeywords(text)) {
          expect(codePoints(keyword).length).toBeGreaterThanOrEqual(2);
          expect(words.some((word) => substringsOf(word).includes(keyword))).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('has no duplicates', () => {
    fc.assert(
      fc.property(description, (text) => {
        const keywords = deriveKeywords(text);
        expect(new Set(keywords).size).toBe(keywords.length);
      }),
      RUNS,
    );
  });

  it('is complete: every substring of 2+ characters of every cleaned word is there', () => {
    fc.assert(
      fc.property(description, (text) => {
        const keywords = new Set(deriveKeywords(text));
        for (const word of cleanWords(text)) {
          for (const sub of substringsOf(word)) expect(keywords.has(sub)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('keywords are lower-case letters and digits only', () => {
    fc.assert(
      fc.property(description, (text) => {
        for (const keyword of deriveKeywords(text)) {
          expect(keyword).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(keyword).toBe(keyword.toLowerCase());
          expect(wellFormed(keyword)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('cleaned words are non-empty, have no whitespace and keep the order of the text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 20 }),
        fc.constantFrom(' ', '\n', '  ', '\t', ' , '),
        (words, separator) => {
          expect(cleanWords(words.join(separator))).toEqual(words);
        },
      ),
      RUNS,
    );
  });
});

/**
 * What a post stores for search (searchGrams, searchText) must find exactly the posts the
 * spec's keywords would: those with a cleaned word containing the query word.
 */
describe('search grams and search text', () => {
  /** How the database decides a match (search.queries.ts containsAll), in memory. */
  const storedMatch = (description: string, word: string) => {
    const grams = new Set(searchGrams(description));
    const { triples, pairs } = queryGrams([word]);
    const holds = (needed: string[]) => needed.every((gram) => grams.has(gram));
    return (holds(triples) || (!gramsDecide(word) && holds(pairs))) && (gramsDecide(word) || searchText(description).includes(word));
  };
  const specMatch = (description: string, word: string) => deriveKeywords(description).includes(word);
  /** Query words as the search cleans them: some substrings of the text's words, some not. */
  const queryWord = (text: string) =>
    fc.oneof(
      fc.constantFrom(...cleanWords(`${text} xx`)).chain((word) => {
        const chars = codePoints(word);
        return fc.tuple(fc.nat(chars.length), fc.nat(chars.length)).map(([a, b]) => chars.slice(Math.min(a, b), Math.max(a, b)).join(''));
      }),
      fc.string({ unit: descriptionChar, minLength: 2, maxLength: 6 }).map((q) => cleanWords(q).join('')),
    );

  it('a post matches a query word iff the word is a substring of one of its cleaned words (the keywords rule)', () => {
    fc.assert(
      fc.property(
        description.chain((text) => fc.tuple(fc.constant(text), fc.array(queryWord(text), { minLength: 1, maxLength: 8 }))),
        ([text, words]) => {
          for (const word of words.filter((w) => codePoints(w).length >= 2)) {
            expect(storedMatch(text, word), `${JSON.stringify(text)} / ${JSON.stringify(word)}`).toBe(specMatch(text, word));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the same for posts that store only their pairs (over the budget)', () => {
    const ideographs = Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0x4e00 + i * 37));
    const costly = fc.string({
      unit: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...ideographs) }, { weight: 1, arbitrary: fc.constant(' ') }),
      minLength: 180,
      maxLength: 200,
    });
    fc.assert(
      fc.property(
        costly
          .filter((text) => searchGrams(text).includes(PAIRS_ONLY))
          .chain((text) => fc.tuple(fc.constant(text), fc.array(queryWord(text), { minLength: 1, maxLength: 8 }))),
        ([text, words]) => {
          for (const word of words.filter((w) => codePoints(w).length >= 2)) expect(storedMatch(text, word)).toBe(specMatch(text, word));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds partial words and not across words', () => {
    expect(storedMatch('Quiet library study', 'ibrar')).toBe(true);
    expect(storedMatch('Quiet library study', 'li')).toBe(true);
    expect(storedMatch('Quiet library study', 'lib')).toBe(true);
    expect(storedMatch('Quiet library study', 'librarystudy')).toBe(false);
    // All the grams of "brarys" are there, in two words; the text check refuses it.
    expect(storedMatch('library rarys', 'brarys')).toBe(false);
    expect(storedMatch('東京タワー', '京タワ')).toBe(true);
  });

  it('grams are every substring of 2 and 3 characters of each word; the text is the distinct words of 2+ characters', () => {
    expect(searchGrams('Hello').sort()).toEqual(['el', 'ell', 'he', 'hel', 'll', 'llo', 'lo']);
    expect(searchText('Hello, hello a World!\nhello')).toBe('hello world');
    expect(searchGrams('a b')).toEqual([]);
    expect(searchGrams('𝒜bc').sort()).toEqual(['bc', '𝒜b', '𝒜bc'].sort());
    fc.assert(
      fc.property(description, (text) => {
        const spec = new Set(deriveKeywords(text));
        const grams = searchGrams(text);
        expect(new Set(grams).size).toBe(grams.length);
        // Descriptions of up to 200 characters of these kinds never go over the budget.
        expect(grams.sort()).toEqual([...spec].filter((keyword) => codePoints(keyword).length <= 3).sort());
      }),
      RUNS,
    );
  });

  it('stay bounded: a post over the budget stores its pairs and PAIRS_ONLY, 200 grams for the worst description', () => {
    const distinct = Array.from({ length: DESCRIPTION_MAX_LENGTH }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    expect(deriveKeywords(distinct)).toHaveLength(19_900);
    const grams = searchGrams(distinct);
    expect(grams).toHaveLength(199 + 1);
    expect(grams).toContain(PAIRS_ONLY);
    expect(grams.filter((gram) => gram !== PAIRS_ONLY).every((gram) => codePoints(gram).length === 2)).toBe(true);
    expect(searchText(distinct)).toBe(distinct);
    // 60 distinct ASCII-ish words: pairs and triples fit.
    expect(searchGrams('Quiet library study session tonight with coffee and exams')).not.toContain(PAIRS_ONLY);
    fc.assert(
      fc.property(description, (text) => {
        const pairs = deriveKeywords(text).filter((keyword) => codePoints(keyword).length === 2);
        expect(searchGrams(text)).toEqual(expect.arrayContaining(pairs));
        expect(searchGrams(text).length).toBeLessThanOrEqual(2 * codePoints(text.toLowerCase()).length);
        expect(searchGrams(text).length).toBeLessThanOrEqual(deriveKeywords(text).length);
      }),
      RUNS,
    );
  });

  it('firstKeywords is the start of deriveKeywords', () => {
    fc.assert(
      fc.property(description, fc.integer({ min: 0, max: 30 }), (text, count) => {
        expect(firstKeywords(text, count)).toEqual(deriveKeywords(text).slice(0, count));
      }),
      RUNS,
    );
  });
});

describe('deriveHashtags: examples', () => {
  it('keeps #-words longer than the # alone, lower-cased, without #, deduplicated', () => {
    expect(deriveHashtags('#Wicked #wicked #a # ##')).toEqual(['wicked', 'a']);
  });

  it('keeps the order of first appearance', () => {
    expect(deriveHashtags('#zeta #Alpha #zeta #beta')).toEqual(['zeta', 'alpha', 'beta']);
  });

  it('only words that begin with #', () => {
    expect(deriveHashtags('no#tag email@x.com C#')).toEqual([]);
    expect(deriveHashtags('hello #world')).toEqual(['world']);
  });

  it('splits on any whitespace, newlines included', () => {
    expect(deriveHashtags('#one\n#two\t#three\r\n#four')).toEqual(['one', 'two', 'three', 'four']);
    expect(deriveHashtags('  #padded  ')).toEqual(['padded']);
  });

  it('a tag ends at punctuation', () => {
    expect(deriveHashtags('#wicked! #wicked, #fun.')).toEqual(['wicked', 'fun']);
    expect(deriveHashtags('#a#b')).toEqual(['a']);
    expect(deriveHashtags('#!!')).toEqual([]);
  });

  it('keeps digits, underscores and letters of any script', () => {
    expect(deriveHashtags('#1st #snake_case #Café #東京')).toEqual(['1st', 'snake_case', 'café', '東京']);
  });

  it('gives nothing when there are no tags', () => {
    expect(deriveHashtags('')).toEqual([]);
    expect(deriveHashtags('just words')).toEqual([]);
  });
});

describe('deriveHashtags: properties', () => {
  it('tags are non-empty, lower-case, without #, unique, and each came from a #-word of the text', () => {
    fc.assert(
      fc.property(description, (text) => {
        const tags = deriveHashtags(text);
        const hashWords = text.split(/\s+/u).filter((word) => word.startsWith('#'));
        expect(new Set(tags).size).toBe(tags.length);
        for (const tag of tags) {
          expect(tag.length).toBeGreaterThan(0);
          expect(tag).not.toContain('#');
          expect(tag).toBe(tag.toLowerCase());
          expect(tag).not.toMatch(/\s/u);
          expect(hashWords.some((word) => word.slice(1).toLowerCase().startsWith(tag))).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('every #word of letters, digits and underscores becomes a tag', () => {
    const tagWord = fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), tagWord), { maxLength: 15 }), (parts) => {
        const text = parts.map(([hash, word]) => (hash ? `#${word}` : word)).join(' ');
        const expected = [...new Set(parts.filter(([hash]) => hash).map(([, word]) => word.toLowerCase()))];
        expect(deriveHashtags(text)).toEqual(expected);
      }),
      RUNS,
    );
  });
});
