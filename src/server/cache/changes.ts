/**
 * What a user changed. Services say this after a write (ReadCache.changed); each cached region
 * declares which of its entries a change makes stale. So a new cache never needs a new call in
 * every service that writes, and a new kind of write never needs to know which caches exist.
 */
export type Change =
  /** A post was created or deleted (`deleted`: it also left every board it was saved to). */
  | { kind: 'post'; postId: string; authorId: string; authorUsername: string; deleted?: boolean }
  /** `follower` followed or unfollowed `target` (both users' counts moved). */
  | { kind: 'follow'; followerId: string; followerUsername: string; targetId: string; targetUsername: string }
  /** A user's public profile (icon, bio) changed. */
  | { kind: 'profile'; userId: string; username: string }
  /**
   * A user deleted their account: their row, posts and follows (both ways, so other users'
   * counts moved) are gone. Rare, so a region may forget everything rather than work out which
   * of its entries showed them.
   */
  | { kind: 'account-deleted'; userId: string; username: string }
  /**
   * A user was suspended, or their suspension ended (issue 17): whether anyone but they may see
   * their profile, posts and list entries changed. Rare, like a deletion.
   */
  | { kind: 'suspension'; userId: string; username: string }
  /**
   * `blocker` blocked or unblocked `blocked` (issue 17): each is hidden from the other, and the
   * follows between them went both ways (their counts moved).
   */
  | { kind: 'block'; blockerId: string; blockerUsername: string; blockedId: string; blockedUsername: string }
  /**
   * `actor` changed a board (issue 18): made, edited, deleted, saved a post to it or removed one,
   * or changed its members. `slugs`: its addresses before and after; `usernames`: everyone whose
   * Boards tab lists it (its owner and its joined members, before and after).
   */
  | { kind: 'board'; boardId: string; actorId: string; ownerUsername: string; slugs: string[]; usernames: string[] };

/** The user who made the change: their next read must see it, on any process. */
export function authorOf(change: Change): string {
  switch (change.kind) {
    case 'post':
      return change.authorId;
    case 'follow':
      return change.followerId;
    case 'block':
      return change.blockerId;
    case 'board':
      return change.actorId;
    default:
      return change.userId;
  }
}

/**
 * Where services report their changes, and caches hear of them. Services depend on this alone,
 * never on the caches. Where several processes share the database a publisher tells the others
 * (db/change-feed.ts), whose changes arrive here through deliver().
 */
export class Changes {
  private readonly listeners: Array<(change: Change) => void> = [];
  private publisher: ((change: Change) => Promise<void>) | undefined;

  subscribe(listener: (change: Change) => void) {
    this.listeners.push(listener);
  }

  publishWith(publisher: (change: Change) => Promise<void>) {
    this.publisher = publisher;
  }

  /** A user changed something here: this process forgets at once, then the others are told. */
  async changed(change: Change): Promise<void> {
    this.deliver(change);
    await this.publisher?.(change);
  }

  /** A change heard of (here, or from another process). */
  deliver(change: Change) {
    for (const listener of this.listeners) listener(change);
  }
}
