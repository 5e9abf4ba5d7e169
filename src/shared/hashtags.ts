/**
 * Hashtags of a description (spec section 3): words that begin with '#' and are longer than
 * the '#' alone, stored without it, lower-cased and without duplicates.
 *
 * A tag ends at the first character that is not a letter, digit or underscore, so
 * "#wicked!" and "#wicked," both give "wicked" as a reader would expect.
 */
const TAG_BODY = /^[\p{L}\p{N}_]+/u;

export function deriveHashtags(description: string): string[] {
  const tags = new Set<string>();
  for (const word of description.split(/\s+/u)) {
    if (!word.startsWith('#')) continue;
    const body = TAG_BODY.exec(word.slice(1).toLowerCase());
    if (body) tags.add(body[0]);
  }
  return [...tags];
}
