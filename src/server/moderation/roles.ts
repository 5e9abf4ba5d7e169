import type { Role } from '../../shared/moderation.js';
import type { SessionCache } from '../auth/session-cache.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { findModeratedUser, insertLog, lockUser, setRole } from './moderation.queries.js';
import { assertAdmin, assertMayActOn, type Actor } from './staff.js';

/**
 * Roles (issue 17): set by an admin on /moderation or by `npm run admin -- role`. Apart from the
 * rest of moderation so the command line needs no storage to run it.
 */
export class Roles {
  constructor(
    private readonly db: AppDb,
    private readonly sessions: SessionCache,
  ) {}

  /** Returns the role the user had. Logged; a role the user already has changes and logs nothing. */
  async setRole(actor: Actor, username: string, role: Role): Promise<{ before: Role } | undefined> {
    assertAdmin(actor);
    const found = await findModeratedUser(this.db, username);
    if (!found) return undefined;
    const before = await this.db.transaction(async (tx) => {
      const user = await lockUser(tx, found.id);
      if (!user) throw new AppError(404, 'USER_NOT_FOUND');
      assertMayActOn(actor, user);
      if (user.role === role) return user.role;
      await setRole(tx, user.id, role);
      await insertLog(tx, {
        actorId: actor.id,
        actorUsername: actor.username,
        action: `role-${role}`,
        targetUserId: user.id,
        targetUsername: user.username,
        targetPostId: null,
        note: `was ${user.role}`,
      });
      return user.role;
    });
    // A cached session holds the user's row, role included (embedded database only).
    this.sessions.forgetUser(found.id);
    return { before };
  }
}
