import { createHash } from 'node:crypto';
import { boardSlug } from '../../shared/validation/board.js';

/** Lower-case letters and digits: a slug is matched lower-cased (board-reads.ts). */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const TAIL = 6;
/** Only when the short tail is already one of the owner's older slugs (see slugOf). */
const LONG_TAIL = 16;

/** Characters drawn from the board's own (random, public) id. */
function idTail(id: string, length: number): string {
  const digest = createHash('sha256').update(id).digest();
  return Array.from(digest.subarray(0, length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/**
 * A board's slug (issue 26): the words of its name, then six characters from its id
 * ("Crush list" → "crush-list-k3xq7a"). It depends on nothing but the board itself: a counter
 * ("crush-list-2") told everyone that the owner had another board, maybe secret, of that name.
 * `long`: the tail of sixteen, for the one case where the short slug is already the owner's
 * (an older board named, say, "Crush list k3xq7a"); both are the board's alone.
 */
export function slugOf(name: string, id: string, long = false): string {
  return `${boardSlug(name)}-${idTail(id, long ? LONG_TAIL : TAIL)}`;
}

/**
 * Whether a board keeps its address under a new name: the name makes the same words (a change
 * of case, say). Boards made before issue 26 have the bare words or a counter ("-2").
 */
export function keepsAddress(slug: string, name: string, id: string): boolean {
  const base = boardSlug(name);
  if (slug === base || slug === slugOf(name, id) || slug === slugOf(name, id, true)) return true;
  return slug.startsWith(`${base}-`) && /^\d+$/.test(slug.slice(base.length + 1));
}
