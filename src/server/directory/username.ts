/** A username as it arrives in a route: '@alice', 'Alice' and 'alice' are the same user. */
export function normalizeUsername(raw: string): string {
  return raw.replace(/^@/, '').toLowerCase();
}
