import type { SessionCache } from '../auth/session-cache.js';
import type { AppDb } from '../db/database.js';
import { findModeratedUser, insertLog, lockUser, markAddressVerified } from './moderation.queries.js';
import { assertAdmin, type Actor } from './staff.js';

/**
 * An admin's word that a user's address is theirs (issue 29): for accounts from before addresses
 * were verified, or a student whose mail never arrives. On /moderation/people and by
 * `npm run admin -- verify`. Logged; an address already verified changes and logs nothing.
 */
export class EmailVerifiedByAdmin {
  constructor(
    private readonly db: AppDb,
    private readonly sessions: SessionCache,
  ) {}

  /** Whether it was verified already; undefined when there is no such user. */
  async verify(actor: Actor, username: string): Promise<{ already: boolean } | undefined> {
    assertAdmin(actor);
    const found = await findModeratedUser(this.db, username);
    if (!found) return undefined;
    const already = await this.db.transaction(async (tx) => {
      const user = await lockUser(tx, found.id);
      if (!user) return undefined;
      if (user.emailVerifiedAt !== null) return true;
      await markAddressVerified(tx, user.id);
      await insertLog(tx, {
        actorId: actor.id,
        actorUsername: actor.username,
        action: 'verify-email',
        targetUserId: user.id,
        targetUsername: user.username,
        targetPostId: null,
        note: '',
      });
      return false;
    });
    // A cached session holds the user's row (embedded database only).
    this.sessions.forgetUser(found.id);
    return already === undefined ? undefined : { already };
  }
}
