/**
 * What a user changed. Services note it in the transaction of their write; once committed every
 * cache hears of it (ReadCache.changed), and each cached region declares which of its entries a
 * change makes stale. So a new cache never needs a new call in
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
  | { kind: 'board'; boardId: string; actorId: string; ownerId: string; ownerUsername: string; slugs: string[]; usernames: string[] }
  /**
   * Pushes were queued (issue 30): no cache holds them; the push sender of whichever process
   * hears it first sends them (notifications/push-sender.ts).
   */
  | { kind: 'push-queued' }
  /**
   * Rows of these users' activity (issue 30) were written, read or deleted; null: of too many
   * users to name (retention, a moderator's notice to every reporter), every viewer's.
   */
  | { kind: 'activity'; userIds: string[] | null };

/** Recipients an 'activity' change names one by one (a notice is one NOTIFY, under 8,000 bytes). */
const ACTIVITY_NAMED_AT_MOST = 50;

/** That rows of these users' activity were written, read or deleted: every viewer's, past a few dozen. */
export const activityChange = (userIds: string[]): Change => ({
  kind: 'activity',
  userIds: userIds.length <= ACTIVITY_NAMED_AT_MOST ? userIds : null,
});

/**
 * Whom a change is about, besides who made it: their next read must show it too, on any process
 * (a moderator's Remove Post is about the post's author; a follow about the one followed).
 */
export function subjectsOf(change: Change): string[] {
  switch (change.kind) {
    case 'post':
      return [change.authorId];
    case 'follow':
      return [change.followerId, change.targetId];
    case 'block':
      return [change.blockerId, change.blockedId];
    case 'board':
      return [change.ownerId];
    case 'push-queued':
      return [];
    case 'activity':
      return change.userIds ?? [];
    default:
      return [change.userId];
  }
}

/**
 * Where caches hear of changes. Services never call it: they note their changes in the
 * transaction of their write (db/change-notices.ts), which delivers them here once committed;
 * where several processes share the database, the others' changes arrive here too
 * (db/change-feed.ts).
 */
export class Changes {
  private readonly listeners: Array<(change: Change) => void> = [];

  subscribe(listener: (change: Change) => void) {
    this.listeners.push(listener);
  }

  /** A change committed (here, or by another process): every listener forgets what it makes stale. */
  deliver(change: Change) {
    for (const listener of this.listeners) listener(change);
  }
}
