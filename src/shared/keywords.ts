/**
 * Search keywords of a description (spec section 3): lower-case it, turn line breaks into
 * spaces, keep only letters, digits and spaces, split into words and take every substring of
 * length 2 or more of each word, without duplicates.
 *
 * "Letters" and "digits" are Unicode ones so that café and 東京 are searchable too.
 */
export function cleanWords(description: string): string[] {
  return description
    .toLowerCase()
    .replace(/\s/gu, ' ')
    .replace(/[^\p{L}\p{N} ]/gu, '')
    .split(' ')
    .filter((word) => word.length > 0);
}

export function deriveKeywords(description: string): string[] {
  const keywords = new Set<string>();
  for (const word of cleanWords(description)) {
    // Code points, not UTF-16 units, so a substring never splits a character outside the BMP.
    const chars = Array.from(word);
    for (let start = 0; start < chars.length - 1; start++) {
      for (let end = start + 2; end <= chars.length; end++) {
        keywords.add(chars.slice(start, end).join(''));
      }
    }
  }
  return [...keywords];
}
