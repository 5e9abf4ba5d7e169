/**
 * What a user changed. Services say this after a write (ReadCache.changed); each cached region
 * declares which of its entries a change makes stale. So a new cache never needs a new call in
 * every service that writes, and a new kind of write never needs to know which caches exist.
 */
export type Change =
  /** A post was created or deleted. */
  | { kind: 'post'; postId: string; authorId: string; authorUsername: string }
  /** `follower` followed or unfollowed `target` (both users' counts moved). */
  | { kind: 'follow'; followerId: string; followerUsername: string; targetId: string; targetUsername: string }
  /** A user's public profile (icon, bio) changed. */
  | { kind: 'profile'; userId: string; username: string };

/**
 * Where services report their changes, and caches hear of them. Services depend on this alone,
 * never on the caches; a cross-process bus plugs in here too (what other processes change
 * arrives as if changed here).
 */
export class Changes {
  private readonly listeners: Array<(change: Change) => void> = [];

  subscribe(listener: (change: Change) => void) {
    this.listeners.push(listener);
  }

  changed(change: Change) {
    for (const listener of this.listeners) listener(change);
  }
}
