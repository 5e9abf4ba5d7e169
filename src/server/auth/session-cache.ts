import { ReadCache, type Region } from '../cache/read-cache.js';
import type { UserRow } from './auth.queries.js';

/** Who a session belongs to, the session's public id, and what the session rule reads of it. */
export interface SessionOwner {
  user: UserRow;
  sessionId: string;
  session: { epoch: number; createdAt: Date; expiresAt: Date };
}

/** Thrown by a read that found no session to remember: nothing is kept for it. */
class NoSession extends Error {}

/**
 * Who a session token belongs to, remembered so that a request need not ask the database: a
 * region of the process's read cache, keyed by the token's hash, each entry owned by its user.
 * Only sound where this process sees every change: the embedded database belongs to exactly
 * one process, so there it is on; with PostgreSQL (many processes) it is off (ttlMs 0). Like
 * every region it is also off while the cache is suspended, which only a PostgreSQL change feed
 * does. A profile change, a deleted account or a suspension (their Change) forgets every session
 * of that user; signing out and other writes no Change names forget through forgetSession() and
 * forgetUser(), after their write.
 *
 * WARNING: a read can overlap such a change (read the row, the change writes and forgets, the
 * read stores what it saw). The cache drops a read in flight when its entry is forgotten, and
 * forgetting a user drops every session read in flight (whose user is not known until it ends);
 * so forget after the write, never before.
 */
export class SessionCache {
  private readonly sessions: Region<SessionOwner>;

  constructor(cache: ReadCache, ttlMs: number) {
    this.sessions = cache.region('sessions', {
      ttlMs,
      ownerOf: (owner) => owner.user.id,
      // A session holds its user's row: a profile change makes it stale, a deleted account ends
      // it, and a suspension ends every session: none may linger here (issue 17).
      staleAfter: (change) =>
        change.kind === 'profile' || change.kind === 'account-deleted' || change.kind === 'suspension' ? [change.userId] : [],
    });
  }

  /** Sessions nowhere remembered: for a process that does not see every change (the command line). */
  static off(): SessionCache {
    return new SessionCache(new ReadCache({ maxBytes: 1, ttlMs: 0 }), 0);
  }

  /**
   * The session of `tokenHash`: remembered, or what `read` finds (undefined: no live session,
   * and nothing is remembered).
   */
  async get(tokenHash: string, read: () => Promise<SessionOwner | undefined>): Promise<SessionOwner | undefined> {
    try {
      return await this.sessions.get(tokenHash, async () => {
        const found = await read();
        if (!found) throw new NoSession();
        return found;
      });
    } catch (error) {
      if (error instanceof NoSession) return undefined;
      throw error;
    }
  }

  forgetSession(tokenHash: string) {
    this.sessions.forget(tokenHash);
  }

  /** After signing out everywhere, a password or role change: every session of this user is re-read. */
  forgetUser(userId: string) {
    this.sessions.forgetOwner(userId);
  }
}
