/** The run of hashtag words that ends a description (a tag word as in shared/hashtags.ts). */
const TRAILING_TAGS = /(?:^|\s)(?:#[\p{L}\p{N}_]\S*\s*)+$/u;

/**
 * The description as the post page shows it: without the hashtags that end it, because the
 * line below lists every hashtag as a link ('#tag #tag', spec section 2) and they would
 * otherwise be printed twice. Tags inside a sentence stay: they are part of what it says.
 */
export function descriptionWithoutTrailingTags(description: string): string {
  return description.replace(TRAILING_TAGS, '').trimEnd();
}
