import { systemClock, type Clock } from '../clock.js';
import type { Change } from '../cache/changes.js';
import type { UserRow } from './auth.queries.js';

/** Who a session belongs to, the session's public id, and what the session rule reads of it. */
export interface SessionOwner {
  user: UserRow;
  sessionId: string;
  session: { epoch: number; createdAt: Date; expiresAt: Date };
}

interface Entry extends SessionOwner {
  expiresAt: number;
  cachedAt: number;
}

/**
 * Who a session token belongs to, remembered so that a request need not ask the database. Only
 * sound where this process sees every change: the embedded database belongs to exactly one
 * process, so there it is on; with PostgreSQL (many processes) it is off (ttlMs 0). Sign-out
 * and profile changes in this process drop the entries they touch, after their write.
 *
 * WARNING: a read can overlap such a change (read the row, the change writes and forgets, the
 * read stores what it saw). So a reader takes `generation` before asking the database and hands
 * it to set(), which stores nothing if anything was forgotten since.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private forgets = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: Clock = systemClock,
  ) {}

  get(tokenHash: string): SessionOwner | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now || now - entry.cachedAt >= this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return { user: entry.user, sessionId: entry.sessionId, session: entry.session };
  }

  /** Take before reading a session from the database; pass to set(). */
  get generation(): number {
    return this.forgets;
  }

  set(tokenHash: string, { user, sessionId, session }: SessionOwner, expiresAt: Date, generation: number) {
    if (this.ttlMs <= 0 || generation !== this.forgets) return;
    // Map keeps insertion order: the oldest entry goes first when full.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { user, sessionId, session, expiresAt: expiresAt.getTime(), cachedAt: this.now() });
  }

  forgetSession(tokenHash: string) {
    this.forgets += 1;
    this.entries.delete(tokenHash);
  }

  /** A session holds its user's row: a profile change makes it stale, a deleted account ends it. */
  changed(change: Change) {
    // A suspension ends every session: none may linger here (issue 17).
    if (change.kind === 'profile' || change.kind === 'account-deleted' || change.kind === 'suspension') this.forgetUser(change.userId);
  }

  /** After a profile change or signing out everywhere: every session of this user is re-read. */
  forgetUser(userId: string) {
    this.forgets += 1;
    for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
  }
}
