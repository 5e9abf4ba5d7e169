/**
 * Search data bounded per post. Posts stored the spec's keywords, every substring of 2 or more
 * characters of each word: 19,900 for one 200-character word, ~9 MB of GIN index for a single
 * post. They now store, computed by the app (src/shared/keywords.ts):
 *
 * - search_grams: every substring of 2 and 3 characters of each word (GIN); when those would
 *   take more than 6,144 bytes of index, the pairs only, and '' to say so;
 * - search_text: the distinct words, separated by spaces.
 *
 * A query word of two characters is found by its own pair; a longer one by all of its triples
 * (or '' and its pairs), then checked against search_text. Both answer exactly what the
 * keywords answered: the posts with a word that contains the query word.
 *
 * Existing rows are converted from their keywords: the grams are the keywords of 2 and 3
 * characters (or of 2, and ''; the same rule as searchGrams), and the words are the keywords that no other keyword extends by one character
 * (the longest ones: the words themselves, less those inside another word, which change no
 * answer). EXCEPT works by hashing, so this costs time in proportion to the keywords. The
 * keywords are emptied in the same UPDATE, so their TOAST space (a kilobyte or more per post)
 * is freed for VACUUM to reclaim: a dropped column's values otherwise stay in every old row.
 */
export default /* sql */ `
DROP INDEX posts_keywords_idx;
ALTER TABLE posts
  ADD COLUMN search_grams text[] NOT NULL DEFAULT '{}',
  ADD COLUMN search_text  text   NOT NULL DEFAULT '';

UPDATE posts SET
  search_grams = CASE
    WHEN (SELECT sum(octet_length(k) + 28) FROM unnest(keywords) AS u(k) WHERE char_length(k) <= 3) <= 6144
    THEN ARRAY(SELECT k FROM unnest(keywords) WITH ORDINALITY AS u(k, n) WHERE char_length(k) <= 3 ORDER BY n)
    ELSE ARRAY(SELECT k FROM unnest(keywords) WITH ORDINALITY AS u(k, n) WHERE char_length(k) = 2 ORDER BY n) || ''::text
  END,
  search_text = array_to_string(ARRAY(
    SELECT k FROM unnest(keywords) AS u(k)
    EXCEPT SELECT left(k, -1) FROM unnest(keywords) AS u(k)
    EXCEPT SELECT right(k, -1) FROM unnest(keywords) AS u(k)
  ), ' '),
  keywords = '{}'
WHERE cardinality(keywords) > 0;

ALTER TABLE posts DROP COLUMN keywords;
CREATE INDEX posts_search_grams_idx ON posts USING gin (search_grams) WITH (fastupdate = off);
-- The search's cost cap reads the grams' statistics; the embedded database analyzes only daily.
ANALYZE posts;
`;
